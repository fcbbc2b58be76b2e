// `npm run build`: install if needed, then build the server and the web app when their sources changed.
import { ensureBuilt, ensureInstalled } from './lib.mjs';

ensureInstalled();
ensureBuilt();
