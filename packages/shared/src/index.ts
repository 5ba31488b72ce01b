export * from './permissions.ts';
export * from './rules.ts';
export * from './validation/messages.ts';
export * from './validation/auth.ts';
export * from './validation/account.ts';
export * from './format/bytes.ts';
export * from './format/uptime.ts';
export * from './format/text.ts';
