// The per-request values the middleware sets for the routes: who is calling and the request id.
import type { Principal } from './auth.js';

export interface AppEnv {
  Variables: {
    requestId: string;
    principal: Principal;
  };
}
