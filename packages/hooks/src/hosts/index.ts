// The host adapters by name: `tollgate hook <host>` and POST /v1/hooks/<host> pick theirs here.
import type { HostAdapter, HostName } from '../host.js';
import { codex } from './codex.js';
import { copilot } from './copilot.js';
import { cursor } from './cursor.js';
import { gemini } from './gemini.js';

export const HOSTS: Record<HostName, HostAdapter> = { codex, gemini, cursor, copilot };
