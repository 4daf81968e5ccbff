/** The operations of the data nodes, by operation value: each one's parameters and execute. */
import * as create from './create';
import * as deleteAll from './delete';
import * as deleteKeys from './deleteKeys';
import * as get from './get';
import * as getAll from './getAll';
import * as update from './update';

export const OPERATIONS = { create, delete: deleteAll, deleteKeys, get, getAll, update };

export type DataOperation = keyof typeof OPERATIONS;

export const isDataOperation = (value: string): value is DataOperation => Object.prototype.hasOwnProperty.call(OPERATIONS, value);
