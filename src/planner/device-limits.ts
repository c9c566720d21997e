/** The limits our planners read. Plain data so it can go into recipes and cache keys. */
export interface DeviceLimits {
  maxComputeWorkgroupStorageSize: number;
  maxComputeInvocationsPerWorkgroup: number;
  maxComputeWorkgroupSizeX: number;
  maxComputeWorkgroupsPerDimension: number;
  maxStorageBufferBindingSize: number;
  maxBufferSize: number;
  minStorageBufferOffsetAlignment: number;
  maxStorageBuffersPerShaderStage: number;
  maxUniformBufferBindingSize: number;
}
