// Component suites render screens with the features' parts registered, as the app's entry does
// (and their `lazy` parts, which the app loads before its first signed-in screen).
import '../../src/registry/client.js';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadRegisteredExtensions } from '../../src/engine/registry/index.js';

await loadRegisteredExtensions();

afterEach(() => cleanup());
