// Every Durable Object stub is made here.
import type { Sandbox } from "../durable-objects/Sandbox";

export const sandboxStub = (env: Env, sessionId: string) => (env.SANDBOX as DurableObjectNamespace<Sandbox>).getByName(sessionId);
