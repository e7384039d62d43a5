export {
  type IndividualScore,
  jaccard,
  type SubgroupScore,
  scoreIndividual,
  scoreSubgroup,
} from './score.js';
