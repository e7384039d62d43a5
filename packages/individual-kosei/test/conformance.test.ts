import { describeConformance } from '@fb/testkit';
import { kosei } from '../src/index.js';

describeConformance(kosei, {
  quickOptions: { globalIterations: 300, localLimit: 20 },
  // The fixture has a continuous attribute, so global draws never repeat: this runs for minutes.
  longOptions: { globalIterations: 50_000_000, localLimit: 1_000_000 },
});
