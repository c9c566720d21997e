// Build a VkFFT plan for C2C fp32 N (default 16384), batch B (default 2048) and dump the
// generated GLSL plus the plan layout (axis uploads, threads, registers, stages).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <chrono>
#include <vulkan/vulkan.h>
#include "glslang_c_interface.h"
#include "vkFFT.h"

#define CK(x) do { VkResult r_ = (x); if (r_ != VK_SUCCESS) { printf("%s failed: %d\n", #x, r_); exit(1); } } while (0)

static uint32_t findMem(VkPhysicalDevice pd, uint32_t bits, VkMemoryPropertyFlags f) {
	VkPhysicalDeviceMemoryProperties mp; vkGetPhysicalDeviceMemoryProperties(pd, &mp);
	for (uint32_t i = 0; i < mp.memoryTypeCount; i++) if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & f) == f) return i;
	printf("no memory type\n"); exit(1);
}

int main(int argc, char** argv) {
	uint64_t N = argc > 1 ? strtoull(argv[1], 0, 0) : 16384;
	uint64_t B = argc > 2 ? strtoull(argv[2], 0, 0) : 2048;
	const char* outdir = argc > 3 ? argv[3] : "vkfft-out";
	int runIt = argc > 4 ? atoi(argv[4]) : 0;     // >0: check one forward transform, then time runIt forward transforms (0 = plan only)
	VkApplicationInfo ai = { VK_STRUCTURE_TYPE_APPLICATION_INFO }; ai.apiVersion = VK_API_VERSION_1_1;
	VkInstanceCreateInfo ici = { VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO }; ici.pApplicationInfo = &ai;
	VkInstance inst; CK(vkCreateInstance(&ici, 0, &inst));
	uint32_t n = 0; vkEnumeratePhysicalDevices(inst, &n, 0); std::vector<VkPhysicalDevice> pds(n); vkEnumeratePhysicalDevices(inst, &n, pds.data());
	VkPhysicalDevice pd = pds[0];
	VkPhysicalDeviceSubgroupProperties sp = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES };
	VkPhysicalDeviceProperties2 p2 = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 }; p2.pNext = &sp;
	vkGetPhysicalDeviceProperties2(pd, &p2);
	printf("device: %s vendor 0x%x; real limits: maxComputeSharedMemorySize %u, maxComputeWorkGroupInvocations %u, maxComputeWorkGroupSize %u %u %u, subgroupSize %u\n",
		p2.properties.deviceName, p2.properties.vendorID, p2.properties.limits.maxComputeSharedMemorySize, p2.properties.limits.maxComputeWorkGroupInvocations,
		p2.properties.limits.maxComputeWorkGroupSize[0], p2.properties.limits.maxComputeWorkGroupSize[1], p2.properties.limits.maxComputeWorkGroupSize[2], sp.subgroupSize);
	float prio = 1.f; VkDeviceQueueCreateInfo qci = { VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO }; qci.queueFamilyIndex = 0; qci.queueCount = 1; qci.pQueuePriorities = &prio;
	VkDeviceCreateInfo dci = { VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO }; dci.queueCreateInfoCount = 1; dci.pQueueCreateInfos = &qci;
	// Pipeline statistics (register count, spills, ... on drivers that report them) via VK_KHR_pipeline_executable_properties.
	uint32_t ne = 0; vkEnumerateDeviceExtensionProperties(pd, 0, &ne, 0); std::vector<VkExtensionProperties> exts(ne); vkEnumerateDeviceExtensionProperties(pd, 0, &ne, exts.data());
	bool haveStats = false; for (auto& e : exts) if (!strcmp(e.extensionName, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME)) haveStats = true;
	const char* extNames[1] = { VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME };
	VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pef = { VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR }; pef.pipelineExecutableInfo = VK_TRUE;
	if (haveStats) { dci.enabledExtensionCount = 1; dci.ppEnabledExtensionNames = extNames; dci.pNext = &pef; setenv("VKFFT_CAPTURE_STATS", "1", 1); }
	printf("VK_KHR_pipeline_executable_properties: %s\n", haveStats ? "yes (statistics printed below)" : "no");
	VkDevice dev; CK(vkCreateDevice(pd, &dci, 0, &dev));
	VkQueue q; vkGetDeviceQueue(dev, 0, 0, &q);
	VkCommandPoolCreateInfo cpi = { VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO }; cpi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT; cpi.queueFamilyIndex = 0;
	VkCommandPool pool; CK(vkCreateCommandPool(dev, &cpi, 0, &pool));
	VkFenceCreateInfo fci = { VK_STRUCTURE_TYPE_FENCE_CREATE_INFO }; VkFence fence; CK(vkCreateFence(dev, &fci, 0, &fence));

	uint64_t bufferSize = 8 * N * B;
	int oop = getenv("VKFFT_OOP") ? atoi(getenv("VKFFT_OOP")) : 0;   // 1: out of place (separate input buffer)
	auto makeBuf = [&](VkBufferUsageFlags use, VkMemoryPropertyFlags want, VkBuffer* b, VkDeviceMemory* m) {
		VkBufferCreateInfo bci = { VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO }; bci.size = bufferSize; bci.usage = use;
		CK(vkCreateBuffer(dev, &bci, 0, b));
		VkMemoryRequirements mr; vkGetBufferMemoryRequirements(dev, *b, &mr);
		VkMemoryAllocateInfo mai = { VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO }; mai.allocationSize = mr.size;
		mai.memoryTypeIndex = findMem(pd, mr.memoryTypeBits, want);
		CK(vkAllocateMemory(dev, &mai, 0, m)); CK(vkBindBufferMemory(dev, *b, *m, 0));
	};
	VkBufferUsageFlags U = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
	VkBuffer buffer, inBuffer = VK_NULL_HANDLE, staging; VkDeviceMemory mem, inMem = VK_NULL_HANDLE, stMem;
	makeBuf(U, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &buffer, &mem);
	if (oop) makeBuf(U, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &inBuffer, &inMem);
	makeBuf(VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, &staging, &stMem);
	glslang_initialize_process();
	VkFFTConfiguration c = {};
	c.FFTdim = 1; c.size[0] = N; c.numberBatches = B;
	c.device = &dev; c.queue = &q; c.fence = &fence; c.commandPool = &pool; c.physicalDevice = &pd; c.isCompilerInitialized = 1;
	c.buffer = &buffer; c.bufferSize = &bufferSize;
	if (oop) { c.isInputFormatted = 1; c.inputBuffer = &inBuffer; c.inputBufferSize = &bufferSize; c.makeForwardPlanOnly = 1; }
	c.keepShaderCode = 1;
	// What the H100 reports through Vulkan (the vendor-specific defaults come from the patched
	// InitializeApp when VKFFT_FAKE_VENDOR=0x10DE is set; these repeat the device limits).
	if (getenv("VKFFT_FAKE_VENDOR")) { c.sharedMemorySize = 49152; c.maxThreadsNum = 1024; }
	if (getenv("VKFFT_REGBOOST")) c.registerBoost = atoi(getenv("VKFFT_REGBOOST"));
	if (getenv("VKFFT_USELUT")) c.useLUT = atoi(getenv("VKFFT_USELUT"));
	if (getenv("VKFFT_SMEM")) c.sharedMemorySize = atoi(getenv("VKFFT_SMEM"));
	if (getenv("VKFFT_MAXTHREADS")) c.maxThreadsNum = atoi(getenv("VKFFT_MAXTHREADS"));
	VkFFTApplication app = {};
	auto t0 = std::chrono::steady_clock::now();
	VkFFTResult res = initializeVkFFT(&app, c);
	double tinit = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	printf("initializeVkFFT -> %d (%.1f s)\n", (int)res, tinit);
	if (res != VKFFT_SUCCESS) return 1;
	printf("app config: vendorID 0x%llx warpSize %llu sharedMemorySize %llu pow2 %llu registerBoost %llu registerBoost4Step %llu coalescedMemory %llu useLUT %lld maxThreadsNum %llu aimThreads %llu swapTo3Stage4Step %llu\n",
		(unsigned long long)app.configuration.vendorID, (unsigned long long)app.configuration.warpSize, (unsigned long long)app.configuration.sharedMemorySize, (unsigned long long)app.configuration.sharedMemorySizePow2,
		(unsigned long long)app.configuration.registerBoost, (unsigned long long)app.configuration.registerBoost4Step, (unsigned long long)app.configuration.coalescedMemory, (long long)app.configuration.useLUT,
		(unsigned long long)app.configuration.maxThreadsNum, (unsigned long long)app.configuration.aimThreads, (unsigned long long)app.configuration.swapTo3Stage4Step);
	VkFFTPlan* plans[2] = { app.localFFTPlan, app.localFFTPlan_inverse };
	const char* pname[2] = { "forward", "inverse" };
	for (int p = 0; p < 2; p++) {
		VkFFTPlan* P = plans[p]; if (!P) continue;
		printf("[%s] numAxisUploads[0] = %llu, axisSplit = %llu %llu %llu %llu\n", pname[p], (unsigned long long)P->numAxisUploads[0],
			(unsigned long long)P->axisSplit[0][0], (unsigned long long)P->axisSplit[0][1], (unsigned long long)P->axisSplit[0][2], (unsigned long long)P->axisSplit[0][3]);
		for (uint64_t k = 0; k < P->numAxisUploads[0]; k++) {
			VkFFTAxis* a = &P->axes[0][k];
			VkFFTSpecializationConstantsLayout* s = &a->specializationConstants;
			printf("  upload %llu: fftDim %lld, localSize %lld x %lld x %lld, axisBlock %llu %llu %llu %llu, groupedBatch %llu, registerBoost %d, registers_per_thread %d, min_registers_per_thread %d, usedLocRegs %d, numStages %d radices:",
				(unsigned long long)k, (long long)s->fftDim.data.i, (long long)s->localSize[0].data.i, (long long)s->localSize[1].data.i, (long long)s->localSize[2].data.i,
				(unsigned long long)a->axisBlock[0], (unsigned long long)a->axisBlock[1], (unsigned long long)a->axisBlock[2], (unsigned long long)a->axisBlock[3], (unsigned long long)a->groupedBatch,
				s->registerBoost, s->registers_per_thread, s->min_registers_per_thread, s->usedLocRegs, s->numStages);
			for (int i = 0; i < s->numStages; i++) printf(" %d", s->stageRadix[i]);
			printf("; usedSharedMemory %lld B, LUT %d, axisSwapped %d, stridedSharedLayout %d, storeSharedComplexComponentsSeparately %d, sharedStrideBankConflictFirstStages %lld, sharedStrideReadWriteConflict %lld, maxSharedStride %lld, warpSize %d\n",
				(long long)s->usedSharedMemory.data.i, s->LUT, s->axisSwapped, s->stridedSharedLayout, s->storeSharedComplexComponentsSeparately,
				(long long)s->sharedStrideBankConflictFirstStages.data.i, (long long)s->sharedStrideReadWriteConflict.data.i, (long long)s->maxSharedStride.data.i, s->warpSize);
			if (haveStats) {
				auto getProps = (PFN_vkGetPipelineExecutablePropertiesKHR)vkGetDeviceProcAddr(dev, "vkGetPipelineExecutablePropertiesKHR");
				auto getStats = (PFN_vkGetPipelineExecutableStatisticsKHR)vkGetDeviceProcAddr(dev, "vkGetPipelineExecutableStatisticsKHR");
				VkPipelineInfoKHR pi = { VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR }; pi.pipeline = a->pipeline;
				uint32_t nx = 0; getProps(dev, &pi, &nx, 0);
				std::vector<VkPipelineExecutablePropertiesKHR> xp(nx); for (auto& x : xp) x.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR;
				getProps(dev, &pi, &nx, xp.data());
				for (uint32_t x = 0; x < nx; x++) {
					printf("    executable %u: %s (%s), subgroupSize %u\n", x, xp[x].name, xp[x].description, xp[x].subgroupSize);
					VkPipelineExecutableInfoKHR ei = { VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR }; ei.pipeline = a->pipeline; ei.executableIndex = x;
					uint32_t ns = 0; getStats(dev, &ei, &ns, 0);
					std::vector<VkPipelineExecutableStatisticKHR> st(ns); for (auto& y : st) y.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
					getStats(dev, &ei, &ns, st.data());
					for (auto& y : st) {
						printf("      %s = ", y.name);
						switch (y.format) {
						case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: printf("%s", y.value.b32 ? "true" : "false"); break;
						case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: printf("%lld", (long long)y.value.i64); break;
						case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: printf("%llu", (unsigned long long)y.value.u64); break;
						default: printf("%g", y.value.f64); break;
						}
						printf("  (%s)\n", y.description);
					}
				}
			}
			if (s->code0) {
				char fn[512]; snprintf(fn, sizeof fn, "%s/vkfft_N%llu_B%llu_%s_upload%llu.comp", outdir, (unsigned long long)N, (unsigned long long)B, pname[p], (unsigned long long)k);
				FILE* f = fopen(fn, "w"); if (f) { fputs(s->code0, f); fclose(f); printf("  wrote %s (%zu chars)\n", fn, strlen(s->code0)); }
			}
		}
	}
	if (runIt > 0) {
		app.configuration.keepShaderCode = 0; // it would print the whole shader at every append
		VkCommandBufferAllocateInfo cbai = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO }; cbai.commandPool = pool; cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY; cbai.commandBufferCount = 1;
		VkCommandBuffer cb; CK(vkAllocateCommandBuffers(dev, &cbai, &cb));
		VkSubmitInfo si = { VK_STRUCTURE_TYPE_SUBMIT_INFO }; si.commandBufferCount = 1; si.pCommandBuffers = &cb;
		VkCommandBufferBeginInfo cbbi = { VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO }; cbbi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
		VkMemoryBarrier mb = { VK_STRUCTURE_TYPE_MEMORY_BARRIER }; mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT; mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
		auto bar = [&]() { vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, 0, 0, 0); };
		auto submitWait = [&]() { CK(vkQueueSubmit(q, 1, &si, fence)); CK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX)); CK(vkResetFences(dev, 1, &fence)); CK(vkResetCommandBuffer(cb, 0)); };
		VkFFTLaunchParams lp = {}; lp.commandBuffer = &cb;
		if (oop) { lp.inputBuffer = &inBuffer; lp.buffer = &buffer; }
		VkBuffer src = oop ? inBuffer : buffer;
		// 1) correctness: a delta at index 1 in every batch -> X[k] = exp(-2 pi i k / N)
		float* h; CK(vkMapMemory(dev, stMem, 0, bufferSize, 0, (void**)&h)); memset(h, 0, bufferSize);
		for (uint64_t bb = 0; bb < B; bb++) h[2 * (bb * N + 1)] = 1.f;
		VkBufferCopy reg = { 0, 0, bufferSize };
		CK(vkBeginCommandBuffer(cb, &cbbi)); vkCmdCopyBuffer(cb, staging, src, 1, &reg); bar();
		res = VkFFTAppend(&app, -1, &lp); if (res) { printf("append %d\n", res); return 1; }
		bar(); vkCmdCopyBuffer(cb, buffer, staging, 1, &reg); CK(vkEndCommandBuffer(cb)); submitWait();
		double maxerr = 0;
		for (uint64_t bb = 0; bb < B; bb += (B > 7 ? B / 7 : 1)) for (uint64_t k = 0; k < N; k++) {
			double ang = -2 * 3.14159265358979323846 * (double)k / (double)N;
			double er = fabs(h[2 * (bb * N + k)] - cos(ang)) + fabs(h[2 * (bb * N + k) + 1] - sin(ang)); if (er > maxerr) maxerr = er; }
		printf("correctness: max abs error of one forward transform vs exp(-2 pi i k/N): %.3g\n", maxerr);
		vkUnmapMemory(dev, stMem);
		// 2) timing: runIt forward transforms in one command buffer (barrier between them), GPU timestamps
		VkQueryPoolCreateInfo qpci = { VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO }; qpci.queryType = VK_QUERY_TYPE_TIMESTAMP; qpci.queryCount = 2;
		VkQueryPool qp; CK(vkCreateQueryPool(dev, &qpci, 0, &qp));
		for (int rep = 0; rep < 3; rep++) {
			CK(vkBeginCommandBuffer(cb, &cbbi)); vkCmdResetQueryPool(cb, qp, 0, 2);
			vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, 0);
			for (int i = 0; i < runIt; i++) { res = VkFFTAppend(&app, -1, &lp); if (res) { printf("append %d\n", res); return 1; } bar(); }
			vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp, 1);
			CK(vkEndCommandBuffer(cb));
			t0 = std::chrono::steady_clock::now(); submitWait();
			double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
			uint64_t ts[2]; CK(vkGetQueryPoolResults(dev, qp, 0, 2, sizeof ts, ts, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
			double gpu_ms = (double)(ts[1] - ts[0]) * p2.properties.limits.timestampPeriod * 1e-6;
			printf("timing rep %d: %d forward transforms (%s): GPU %.4f ms per transform, host wall %.4f ms per transform\n", rep, runIt, oop ? "out of place" : "in place", gpu_ms / runIt, wall * 1e3 / runIt);
		}
		vkDestroyQueryPool(dev, qp, 0);
	}
	deleteVkFFT(&app);
	glslang_finalize_process();
	return 0;
}
