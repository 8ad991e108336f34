// The app adds each page's English texts when its chunk loads; unit tests render pages and stores on their own,
// so the whole English fallback is there from the start, as the server's English strings are in the app.
import { addEnglish } from '../lib/i18n';
import { namespaces } from '../lib/i18n/namespaces';

for (const texts of Object.values(namespaces)) addEnglish(texts);
