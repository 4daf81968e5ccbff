import type { ListedOperation } from '../../shared/operation';
import * as send from './send';

export const OPERATIONS = { send } satisfies Record<string, ListedOperation>;
