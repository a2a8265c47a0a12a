import {
  registerResourceServerBody,
  resourceServerParams,
  updateResourceServerBody,
} from '@keycard/contract';
import { z } from 'zod';

/** Inputs of the resource server operations (resource-operations.ts); answers are the contract's views. */
export {
  type ResourceServersView,
  type ResourceServerView,
  resourceServersView,
  resourceServerView,
} from '@keycard/contract';

/** resource:add: the admin API's register body. */
export const addResourceServerInput = registerResourceServerBody;
export type AddResourceServerInput = z.input<typeof addResourceServerInput>;

/** resource:update: the identifier and the fields of the contract's update body. */
export const updateResourceServerInput = z.strictObject({
  ...resourceServerParams.shape,
  ...updateResourceServerBody.shape,
});
export type UpdateResourceServerInput = z.input<typeof updateResourceServerInput>;

/** Reading or removing one resource server. */
export const resourceServerInput = resourceServerParams;
export type ResourceServerInput = z.input<typeof resourceServerInput>;

/** resource:list takes nothing. */
export const listResourceServersInput = z.strictObject({});
export type ListResourceServersInput = z.input<typeof listResourceServersInput>;
