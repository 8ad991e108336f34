/** Same start-up and signal handling as the API: .env, validated configuration, one ordered stop. */
export { loadConfigOrExit, stopOnSignals } from '../../../server/src/lib/boot';
