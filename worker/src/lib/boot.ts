/** Same start-up as the API: .env, then the configuration validated or the process exits listing why. */
export { loadConfigOrExit } from '../../../server/src/lib/boot';
