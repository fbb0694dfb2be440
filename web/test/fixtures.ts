import type { AppConfig, Entry, Role, User } from '../../core/schemas.js';
import type { Shoe } from '../../core/shoes.js';

export function makeUser(overrides: Partial<User> & { role?: Role } = {}): User {
  return {
    id: 1,
    name: 'Rita Runner',
    email: 'rita@example.com',
    role: 'user',
    timezone: 'UTC',
    units: 'km',
    theme: 'auto',
    max_heart_rate: null,
    resting_heart_rate: null,
    pace_format: 'decimal',
    date_format: 'MM/DD/YYYY',
    locale: 'auto',
    status: 'active',
    two_factor: false,
    date: '2024-03-05T14:07:09.000Z',
    created_at: '2024-03-05T14:07:09.000Z',
    updated_at: '2024-03-05T14:07:09.000Z',
    ...overrides,
  };
}

export function makeEntry(overrides: Partial<Entry> = {}): Entry {
  return {
    id: 7,
    user_id: 1,
    date: '2024-03-09',
    distance: 10.5,
    time: '00:52:30',
    speed: 12,
    pace: 5,
    title: null,
    notes: null,
    kind: null,
    effort: null,
    shoe_id: null,
    created_at: '2024-03-09T10:00:00.000Z',
    updated_at: '2024-03-09T10:00:00.000Z',
    has_track: false,
    elevation_gain: null,
    elevation_loss: null,
    avg_heart_rate: null,
    max_heart_rate: null,
    avg_cadence: null,
    ...overrides,
  };
}

export function makeShoe(overrides: Partial<Shoe> = {}): Shoe {
  return {
    id: 11,
    name: 'Pegasus 40',
    brand: 'Nike',
    limit_km: 700,
    start_km: 0,
    retired: false,
    is_default: false,
    distance: 0,
    runs: 0,
    over_limit: false,
    created_at: '2024-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export function paged<T>(data: T[], page = 1, lastPage = 1) {
  return {
    data,
    current_page: page,
    last_page: lastPage,
    per_page: 15,
    total: data.length,
    from: data.length ? 1 : null,
    to: data.length ? data.length : null,
    next_page_url: null,
    prev_page_url: null,
  };
}

/** GET /app-config outside demo mode, without a source link, unless overridden. */
export function makeAppConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    demo_mode: false,
    demo_login: null,
    map: null,
    source_url: null,
    mail: false,
    signup: 'open',
    oidc: null,
    ...overrides,
  };
}
