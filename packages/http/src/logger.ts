// The service's logger: pino JSON lines with the Authorization header redacted as a second line of
// defence (the request logger never passes headers or bodies in the first place).
import { type DestinationStream, type Logger, pino } from 'pino';

export function serviceLogger(destination: DestinationStream, level = 'info'): Logger {
  return pino(
    {
      level,
      base: { service: 'tollgate' },
      redact: {
        paths: ['authorization', 'headers.authorization', 'req.headers.authorization', 'token'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
