// Component suites render screens with the features' parts registered, as the app's entry does.
import '../../src/registry/client.js';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

afterEach(() => cleanup());
