export * from './permissions.ts';
export * from './rules.ts';
