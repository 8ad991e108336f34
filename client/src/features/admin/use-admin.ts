import { adminStoreFor, type AdminStore } from './stores/admin-store';
import { useStore } from '../../stores';

/** The console's stores (made the first time a console page renders). */
export function useAdmin(): AdminStore {
  return adminStoreFor(useStore());
}
