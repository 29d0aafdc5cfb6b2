/** A folder with no `.http` file: how to begin (a first request, or an import). */
import React from 'react';
import { Box, Text } from 'ink';
import type { Keymap } from '../keymap.js';
import type { Theme } from '../theme.js';

export interface WelcomeProps {
  folder: string;
  keymap: Keymap;
  width: number;
  height: number;
  theme: Theme;
}

export function Welcome({ folder, keymap, width, height, theme }: WelcomeProps): React.ReactElement {
  const key = (keys: string[]): string => keys.join(' / ');
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      borderStyle="round"
      borderColor={theme.borderFocused}
      paddingX={2}
      paddingY={1}
    >
      <Text bold>Welcome to dial</Text>
      <Text wrap="wrap" color={theme.muted}>{`No .http file in ${folder} yet.`}</Text>
      <Text> </Text>
      <Text wrap="wrap">
        <Text color={theme.accent}>{key(keymap.newRequest).padEnd(12)}</Text>New request: type METHOD URL; it goes into
        a new requests.http
      </Text>
      <Text wrap="wrap">
        <Text color={theme.accent}>{key(keymap.importRequests).padEnd(12)}</Text>Import: paste a curl command, or give a
        Postman collection or OpenAPI file
      </Text>
      <Text wrap="wrap">
        <Text color={theme.accent}>{key(keymap.palette).padEnd(12)}</Text>Command palette
      </Text>
      <Text wrap="wrap">
        <Text color={theme.accent}>{key(keymap.help).padEnd(12)}</Text>All keys
      </Text>
      <Text wrap="wrap">
        <Text color={theme.accent}>{key(keymap.quit).padEnd(12)}</Text>Quit
      </Text>
    </Box>
  );
}
