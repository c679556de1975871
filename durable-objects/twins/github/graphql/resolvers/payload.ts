// What every mutation's input and payload share: the client's own id for the call, echoed back.

export type Mutation = { clientMutationId?: string | null };

/** A mutation's payload: the input's `clientMutationId` (null when not sent) beside its fields. */
export const done = (input: Mutation, payload: Record<string, unknown>) => ({
  clientMutationId: input.clientMutationId ?? null,
  ...payload,
});
