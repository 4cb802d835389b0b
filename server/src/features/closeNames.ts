// Names close to a mistyped one, for "did you mean" lists: the one bounded search of analysis/closestName.ts.

export { nearNames as closeNames } from '../analysis/closestName';
