export * from './types.ts';
export * from './paths.ts';
export * from './variable-rules.ts';
export { RESERVED_ENV_NAMES, eggSchema, eggV1Schema, eggV2Schema } from './schema.ts';
export { eggConfigSchema } from './config.ts';
export * from './parse.ts';
export * from './export.ts';
export * from './install-entrypoint.ts';
export * from './placeholders.ts';
