// The first import of index.ts: an old Node is refused before undici or any other module loads.
import { refuseUnsupportedNode } from './runtime-floor.js';

refuseUnsupportedNode('@feedbackd/sdk');
