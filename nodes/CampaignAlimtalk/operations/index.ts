/** The operations of the Alimtalk node, by operation value: each one's parameters and execute. */
import type { Operation } from '../../shared/operation';
import * as send from './send';

export const OPERATIONS = { send } satisfies Record<string, Operation>;
