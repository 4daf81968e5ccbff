/** Node's own APIs for the test code: the sandbox's one door to them (see sandbox/node.ts). */
export * from '../../sandbox/node';
