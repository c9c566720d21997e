/** The index-digit algebra: layouts, permutations, operators, operator strings, Stockham indexing. */
export {
  type DigitLayout,
  MAX_LAYOUT_SIZE,
  validateLayout,
  layoutSize,
  digitStrides,
  toDigits,
  fromDigits,
  sameLayout,
  formatLayout,
} from './digits.js';
export { IndexMap } from './index-map.js';
export { Grouping } from './grouping.js';
export {
  type ShiftTerm,
  type ReversalTerm,
  type ButterflyTerm,
  type PermutationTerm,
  type OperatorTerm,
  type LayoutMap,
  validateTerm,
  digitSource,
  leavesDigit,
  permuteLayout,
  digitPermutation,
  applyOperator,
  composeLayoutMaps,
  gamma,
  sigma,
  gamma2,
  sigma2,
  rho,
  butterfly,
  butterflyRadix,
} from './operators.js';
export {
  type OperatorString,
  type OperatorStringStyle,
  type ButterflyStep,
  type OperatorStringEvaluation,
  formatTerm,
  formatOperatorString,
  normalizeTerm,
  parseOperatorString,
  isIdentityTerm,
  simplifyOperatorString,
  evaluateOperatorString,
} from './operator-string.js';
export {
  type TwiddleExponent,
  type StockhamStageMaps,
  type IdFftOptions,
  stockhamLayouts,
  stockhamStageMaps,
  stockhamOperatorString,
  stockhamSeedOperatorString,
  idFftOperatorString,
} from './stockham.js';
