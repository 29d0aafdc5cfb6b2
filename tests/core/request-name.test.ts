import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../src/core/httpfile/index.js';
import { displayName, urlPath } from '../../src/core/request-name.js';

describe('displayName', () => {
  const names = (text: string): string[] => parseHttpFile(text, '/ws/a.http').requests.map(displayName);

  it('is the ### title, else the # @name, else METHOD and the path', () => {
    const text =
      '### Who am I\n# @name whoami\nGET {{base}}/me\n\n###\n# @name health\nGET http://x/health\n\n###\nPOST https://api.example.com/users?x=1\n';
    expect(names(text)).toEqual(['Who am I', 'health', 'POST /users?x=1']);
  });

  it('keeps a URL that is only a path or a variable readable', () => {
    expect(urlPath('/local')).toBe('/local');
    expect(urlPath('{{base}}')).toBe('/');
    expect(urlPath('http://127.0.0.1:8080')).toBe('/');
    expect(urlPath('example.com/a')).toBe('example.com/a');
    expect(urlPath('{{host}}:{{port}}/Contributors')).toBe('/Contributors');
    expect(urlPath('{{host}}:8080/a')).toBe('/a');
  });
});
