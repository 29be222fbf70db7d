import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.js';

const cwd = '/srv/awards';

describe('loadConfig', () => {
  it('fills defaults that work out of the box', () => {
    const config = loadConfig({}, cwd);
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: path.join(cwd, 'data'),
      databaseUrl: undefined,
      logLevel: 'info',
      adminEmail: 'admin@example.com',
      adminPassword: undefined,
      trustProxy: [],
      publicUrl: 'http://localhost:3000',
      bodyLimit: 1024 * 1024,
      dbConnectTimeoutMs: 2000,
      backupIntervalHours: 24,
      listCacheMb: 4,
      demoData: true,
      publicDir: path.join(cwd, 'dist/public'),
      entitiesDirs: [path.join(cwd, 'entities')],
      schemasDirs: [path.join(cwd, 'schemas')],
    });
  });

  it('keeps a larger list cache by default on PostgreSQL than on PGlite, whose process also holds the database', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/awards' }, cwd).listCacheMb).toBe(16);
    expect(loadConfig({}, cwd).listCacheMb).toBe(4);
    expect(loadConfig({ LIST_CACHE_MB: '32' }, cwd).listCacheMb).toBe(32);
  });

  it('reads every variable it documents', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '0.0.0.0',
        DATA_DIR: 'var/awards',
        DATABASE_URL: 'postgresql://awards@db:5432/awards',
        JWT_SECRET: 'x'.repeat(32),
        LOG_LEVEL: 'debug',
        ADMIN_EMAIL: 'Staff@Example.COM',
        ADMIN_PASSWORD: 'long-enough',
        TRUST_PROXY: '10.0.0.1, 10.0.0.2',
        SMTP_URL: 'smtps://user:pass@mail.example.com',
        MAIL_FROM: 'Awards <awards@example.com>',
        PUBLIC_URL: 'https://awards.example.com/',
        BODY_LIMIT: '2048',
        DB_CONNECT_TIMEOUT_MS: '500',
        DB_PREPARED_STATEMENTS: 'false',
        BACKUP_INTERVAL_HOURS: '0',
        LIST_CACHE_MB: '0',
        DEMO_DATA: 'off',
        PUBLIC_DIR: '/opt/public',
        ENTITIES_DIR: ['entities', 'extra/entities'].join(path.delimiter),
      },
      cwd,
    );
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: path.join(cwd, 'var/awards'),
      databaseUrl: 'postgresql://awards@db:5432/awards',
      logLevel: 'debug',
      adminEmail: 'staff@example.com',
      trustProxy: ['10.0.0.1', '10.0.0.2'],
      smtpUrl: 'smtps://user:pass@mail.example.com',
      mailFrom: 'Awards <awards@example.com>',
      publicUrl: 'https://awards.example.com',
      bodyLimit: 2048,
      dbConnectTimeoutMs: 500,
      dbPreparedStatements: false,
      backupIntervalHours: 0,
      listCacheMb: 0,
      demoData: false,
      publicDir: '/opt/public',
      entitiesDirs: [path.join(cwd, 'entities'), path.join(cwd, 'extra/entities')],
    });
  });

  it('keeps DATA_DIR=:memory: as the in-memory marker instead of a folder named ":memory:"', () => {
    expect(loadConfig({ DATA_DIR: ':memory:' }, cwd).dataDir).toBe(':memory:');
  });

  it.each(['1', 'true', 'YES', ' on '])('reads DEMO_DATA=%s as true', (value) => {
    expect(loadConfig({ DEMO_DATA: value }, cwd).demoData).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number from 0 to 65535; got "eighty".'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535; got 70000.'],
    [{ PORT: '-1' }, 'PORT must be a whole number from 0 to 65535; got "-1".'],
    [{ DATABASE_URL: 'mysql://db/awards' }, 'DATABASE_URL must start with postgres:// or postgresql://.'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET must be at least 32 characters; leave it unset to have one generated.'],
    [{ LOG_LEVEL: 'verbose' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent; got "verbose".'],
    [{ ADMIN_EMAIL: 'not-an-email' }, 'ADMIN_EMAIL must be an e-mail address; got "not-an-email".'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD must be 8 to 128 characters long.'],
    [{ SMTP_URL: 'mail.example.com' }, 'SMTP_URL must start with smtp:// or smtps://.'],
    [{ PUBLIC_URL: 'awards.example.com' }, 'PUBLIC_URL must start with http:// or https://.'],
    [{ BODY_LIMIT: '10' }, 'BODY_LIMIT must be a whole number from 1024 to 52428800; got 10.'],
    [{ DB_CONNECT_TIMEOUT_MS: '99' }, 'DB_CONNECT_TIMEOUT_MS must be a whole number from 100 to 60000; got 99.'],
    [{ BACKUP_INTERVAL_HOURS: '1.5' }, 'BACKUP_INTERVAL_HOURS must be a whole number from 0 to 8760; got "1.5".'],
    [{ LIST_CACHE_MB: 'lots' }, 'LIST_CACHE_MB must be a whole number from 0 to 4096; got "lots".'],
    [{ DEMO_DATA: 'maybe' }, 'DEMO_DATA must be true or false; got "maybe".'],
  ])('rejects %o with a message naming the variable and what it accepts', (env, message) => {
    expect(() => loadConfig(env, cwd)).toThrow(ConfigError);
    expect(() => loadConfig(env, cwd)).toThrow(message);
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '  ', ADMIN_PASSWORD: '' }, cwd)).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      adminPassword: undefined,
    });
  });
});
