// The first import of index.ts: an old Node is refused before any other module of the package
// runs (the check and the floor live in the SDK, which every package depends on).
import { refuseUnsupportedNode } from '@feedbackd/sdk/runtime-floor';

refuseUnsupportedNode('@feedbackd/server');
