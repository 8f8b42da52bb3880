/** Which addresses callbacks and webhooks may never reach (docs/behaviour.md "Payment safety in deployed stages"). */
import { describe, expect, it } from 'vitest';
import { classifyAddress, describeHostRefusal, describeRefusal, refusedAddress, refusedHost } from '../../shared/net/address-policy';

const deployed = { allowLoopback: false };
const local = { allowLoopback: true };

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['192.168.255.255', 'private'],
    ['fc00::1', 'private'],
    ['fd00:ec2::254', 'private'],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'private'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['febf:ffff::1', 'link-local'],
    ['100.64.0.0', 'shared'],
    ['100.127.255.255', 'shared'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.0.0', 'reserved'],
    ['192.0.0.8', 'reserved'],
    ['192.0.0.255', 'reserved'],
    ['198.18.0.0', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['2001::1', 'tunnel'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'tunnel'],
    ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'tunnel'],
    ['64:ff9b:1::a00:1', 'translation'],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'translation'],
    ['64:ff9b:1::808:808', 'translation'],
  ])('%s is %s', (address, addressClass) => {
    expect(classifyAddress(address)).toEqual({ addressClass });
  });

  it.each([
    // IPv4-mapped, in every spelling: dotted, hex (as the URL parser writes it), expanded, upper case.
    ['::ffff:127.0.0.1', 'loopback', 'IPv4-mapped'],
    ['::ffff:7f00:1', 'loopback', 'IPv4-mapped'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback', 'IPv4-mapped'],
    ['::FFFF:10.0.0.1', 'private', 'IPv4-mapped'],
    ['::ffff:a00:1', 'private', 'IPv4-mapped'],
    ['::ffff:ac10:1', 'private', 'IPv4-mapped'],
    ['::ffff:c0a8:101', 'private', 'IPv4-mapped'],
    ['::ffff:169.254.169.254', 'link-local', 'IPv4-mapped'],
    ['::ffff:a9fe:a9fe', 'link-local', 'IPv4-mapped'],
    ['::ffff:100.64.0.1', 'shared', 'IPv4-mapped'],
    ['::ffff:6440:1', 'shared', 'IPv4-mapped'],
    ['::ffff:0.0.0.0', 'unspecified', 'IPv4-mapped'],
    // Other IPv6 forms that carry an IPv4 address.
    ['::ffff:0:7f00:1', 'loopback', 'IPv4-translated'],
    ['::10.0.0.1', 'private', 'IPv4-compatible'],
    ['::7f00:1', 'loopback', 'IPv4-compatible'],
    ['64:ff9b::a9fe:a9fe', 'link-local', 'NAT64'],
    ['64:ff9b::10.1.2.3', 'private', 'NAT64'],
    ['2002:a00:1::1', 'private', '6to4'],
    ['2002:7f00:1::', 'loopback', '6to4'],
    ['::ffff:198.18.0.1', 'benchmarking', 'IPv4-mapped'],
    ['::ffff:c000:1', 'reserved', 'IPv4-mapped'],
    ['64:ff9b::c612:1', 'benchmarking', 'NAT64'],
  ])('%s is %s (%s)', (address, addressClass, embedding) => {
    expect(classifyAddress(address)).toEqual({ addressClass, embedding });
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '9.255.255.255',
    '11.0.0.0',
    '126.255.255.255',
    '128.0.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '192.169.0.0',
    '169.253.255.255',
    '169.255.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '223.255.255.255',
    // Just outside the special-purpose blocks.
    '191.255.255.255',
    '192.0.1.0',
    '192.0.2.1',
    '198.17.255.255',
    '198.20.0.0',
    '2001:1::1',
    '2001:db7:ffff::1',
    '64:ff9b:2::1',
    '64:ff9a:ffff::1',
    '2001:4860:4860::8888',
    '2606:4700:4700::1111',
    'fbff::1',
    'fe00::1',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is on the internet', (address) => {
    expect(classifyAddress(address)).toBeUndefined();
  });

  it('takes addresses only', () => {
    expect(() => classifyAddress('example.com')).toThrow('Not an IP address');
    expect(() => classifyAddress('[::1]')).toThrow('Not an IP address');
  });
});

describe('refusedHost: a URL hostname, as the URL parser leaves it', () => {
  const hostOf = (url: string) => new URL(url).hostname;

  it.each([
    // Spellings the WHATWG parser turns into 127.0.0.1 or [::ffff:7f00:1].
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://127.0.0.1./', '127.0.0.1'],
    ['http://%31%32%37.0.0.1/', '127.0.0.1'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
    ['http://[0:0:0:0:0:0:0:1]/', '[::1]'],
    ['http://localhost/', 'localhost'],
    ['http://LOCALHOST./', 'localhost.'],
    ['http://hooks.localhost:8080/', 'hooks.localhost'],
  ])('%s (%s) is loopback: refused on a deployed stage, allowed locally', (url, hostname) => {
    expect(hostOf(url)).toBe(hostname);
    expect(refusedHost(hostOf(url), deployed)).toMatchObject({ addressClass: 'loopback' });
    expect(refusedHost(hostOf(url), local)).toBeUndefined();
  });

  it.each([
    ['http://10.1/', 'private'],
    ['http://0xa9.254.169.254/', 'link-local'],
    ['http://[::ffff:a9fe:a9fe]/', 'link-local'],
    ['http://[fd00:ec2::254]/', 'private'],
    ['http://1681915905/', 'shared'],
    ['http://0/', 'unspecified'],
    ['http://192.0.0.170/', 'reserved'],
    ['http://198.18.1.1/', 'benchmarking'],
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'tunnel'],
    ['http://[64:ff9b:1::a9fe:a9fe]/', 'translation'],
  ])('%s is refused on every stage: %s', (url, addressClass) => {
    expect(refusedHost(hostOf(url), deployed)).toMatchObject({ addressClass });
    expect(refusedHost(hostOf(url), local)).toMatchObject({ addressClass });
  });

  it('leaves other names to their DNS answer', () => {
    for (const url of ['https://pms.example.com/', 'https://localhost.example.com/', 'https://mylocalhost/', 'https://[2001:db8::1]/']) {
      expect(refusedHost(hostOf(url), deployed)).toBeUndefined();
    }
  });
});

describe('refusedAddress: a DNS answer', () => {
  it('refuses loopback except on the local stack, and the rest everywhere', () => {
    expect(refusedAddress('127.0.0.1', deployed)).toEqual({ addressClass: 'loopback' });
    expect(refusedAddress('::ffff:7f00:1', deployed)).toEqual({ addressClass: 'loopback', embedding: 'IPv4-mapped' });
    expect(refusedAddress('127.0.0.1', local)).toBeUndefined();
    expect(refusedAddress('::1', local)).toBeUndefined();
    expect(refusedAddress('10.0.0.7', local)).toEqual({ addressClass: 'private' });
    expect(refusedAddress('8.8.8.8', deployed)).toBeUndefined();
  });
});

describe('descriptions', () => {
  it('name the class, the form and the host', () => {
    expect(describeRefusal({ addressClass: 'private' })).toBe('private address');
    expect(describeRefusal({ addressClass: 'shared', embedding: 'IPv4-mapped' })).toBe('IPv4-mapped shared address');
    expect(describeHostRefusal('10.0.0.1', { addressClass: 'private' })).toBe('10.0.0.1 is a private address');
    expect(describeHostRefusal('[::ffff:a00:1]', { addressClass: 'private', embedding: 'IPv4-mapped' })).toBe(
      '::ffff:a00:1 is an IPv4-mapped private address',
    );
    expect(describeHostRefusal('0.0.0.0', { addressClass: 'unspecified' })).toBe('0.0.0.0 is an unspecified address');
    expect(describeHostRefusal('[2001::1]', { addressClass: 'tunnel' })).toBe('2001::1 is a tunnel address');
    expect(describeHostRefusal('Hooks.Localhost.', { addressClass: 'loopback' })).toBe('hooks.localhost is a loopback name');
  });
});
