import type { CurrencyOption } from './currencies.js';

/**
 * A currency's flag, decorative (the code and name carry the meaning): the emoji, or for the
 * local currency (flag text `myr`) its own flag image, sized to the emoji's line.
 */
export function CurrencyFlag({ option }: { option: CurrencyOption }): React.ReactElement {
  if (option.flagImage) {
    return (
      <img
        src={option.flagImage}
        alt=""
        aria-hidden="true"
        width={20}
        height={10}
        style={{ display: 'inline-block', verticalAlign: 'middle', borderRadius: 2, boxShadow: '0 0 0 1px var(--gray-a5)' }}
      />
    );
  }
  return (
    <span aria-hidden="true" style={{ fontSize: '1.1em', lineHeight: 1 }}>
      {option.flag}
    </span>
  );
}
