// A process with a liveness watchdog for watchdog.test.ts: `tsx watchdog-child.ts <mode> <staleAfterMs>`.
// beat: beats every 200 ms; idle: never beats, event loop free; busy: never beats, main thread spinning.
import { startWatchdog } from '../queue/watchdog';

const [mode, staleAfterMs] = process.argv.slice(2);
const watchdog = startWatchdog(Number(staleAfterMs), { component: 'worker', workerId: 'child' });
process.stdout.write('ready\n');
if (mode === 'beat') setInterval(() => watchdog.beat(), 200);
else if (mode === 'idle') setInterval(() => undefined, 1000);
else if (mode === 'busy') {
  const spin = (): Promise<void> => Promise.reject(new Error('offline')).catch(spin);
  void spin();
}
