/**
 * Where security material may be fetched from: https anywhere, plain http on loopback only.
 */
import t from 'tap';
import { isHttpsOrLoopbackUrl, isLoopbackHost } from '../../src/shared/secure-url.js';

t.test('loopback hosts, as URL.hostname writes them', async (t) => {
  const rows: { name: string; host: string; want: boolean }[] = [
    { name: 'localhost', host: 'localhost', want: true },
    { name: '127.0.0.1', host: '127.0.0.1', want: true },
    { name: 'anywhere in 127/8', host: '127.10.20.30', want: true },
    { name: 'IPv6 loopback', host: '[::1]', want: true },
    { name: 'a name', host: 'idp.example', want: false },
    { name: 'a name starting like loopback', host: '127.0.0.1.nip.io', want: false },
    { name: 'a private address', host: '10.0.0.1', want: false },
    { name: 'another IPv6 address', host: '[fd00::1]', want: false },
  ];
  for (const row of rows) t.equal(isLoopbackHost(row.host), row.want, row.name);
});

t.test('https anywhere, http on loopback only', async (t) => {
  const rows: { name: string; url: string; want: boolean }[] = [
    { name: 'https', url: 'https://idp.example/jwks', want: true },
    { name: 'https on loopback', url: 'https://127.0.0.1/jwks', want: true },
    { name: 'http on 127.0.0.1', url: 'http://127.0.0.1:8080/jwks', want: true },
    { name: 'http on localhost', url: 'http://localhost/jwks', want: true },
    { name: 'http on [::1]', url: 'http://[::1]:9000/jwks', want: true },
    { name: 'http elsewhere', url: 'http://idp.example/jwks', want: false },
    { name: 'another scheme on loopback', url: 'file://localhost/etc/jwks', want: false },
    { name: 'not a URL', url: '/jwks', want: false },
  ];
  for (const row of rows) t.equal(isHttpsOrLoopbackUrl(row.url), row.want, row.name);
});
