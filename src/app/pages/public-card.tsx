import { Card, Flex, Heading } from '@radix-ui/themes';
import type { ReactNode } from 'react';
import { LanguageSwitcher } from '../layout/language-switcher.js';
import { LegalLinks } from '../layout/legal-links.js';

/** The frame of the small public forms (forgot and reset password): a centred card with a heading. */
export function PublicCard({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <Flex direction="column" align="center" justify="center" gap="5" minHeight="100vh" p="4" asChild>
      <main>
        <Flex justify="end" width="100%" style={{ maxWidth: 440 }}>
          <LanguageSwitcher />
        </Flex>
        <Card size="4" style={{ width: '100%', maxWidth: 440 }}>
          <Flex direction="column" gap="4">
            <Heading as="h1" size="6">
              {heading}
            </Heading>
            {children}
          </Flex>
        </Card>
        <LegalLinks />
      </main>
    </Flex>
  );
}
