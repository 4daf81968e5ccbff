/** The transport, split by job; nodes import it from here. */
export * from './client';
export * from './credentials';
export * from './envelope';
export * from './network';
export * from './call';
export * from './classify';
export * from './retry';
