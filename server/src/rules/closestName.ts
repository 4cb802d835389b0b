// Near-miss suggestions for rules: the one bounded search of analysis/closestName.ts under the names rules use.

export { editDistance, isNearMiss, isTypo, maxEdits, nearestName as closestName, type NameSuggestion } from '../analysis/closestName';
