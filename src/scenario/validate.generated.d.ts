import type { ErrorObject } from 'ajv';

/** The scenario validator compiled from schema.ts (see validator-source.ts). */
export declare const validate: ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
export default validate;
