/** The deduplication simulation, part 3 of 3 of its seeded schedules (sim-suite.ts). */
import { simulationPart } from './sim-suite';

simulationPart(3);
