/**
 * A scanner's ingestion payload: `count` assets with two vulnerabilities each, chained by
 * relations; each prefix scans its own address range (`net`), so that no two payloads match by ip.
 */
export function scannerPayload(count: number, prefix: string, net: number, mode = 'merge') {
  const assets = Array.from({ length: count }, (_v, i) => ({
    id: `${prefix}-${i}`,
    name: `${prefix} host ${i}`,
    ip: `10.${net}.${(i >> 8) & 255}.${i & 255}`,
    type: 'server',
    vendor: 'Dell',
    site: 'dc1',
    risk_score: i % 101,
    vulnerabilities: [
      { id: 'CVE-2024-0001', score: 7.5, summary: 'first', publishedDate: '2024-01-01' },
      { id: 'CVE-2024-0002', score: 3.1, summary: 'second', publishedDate: '2024-02-01' },
    ],
  }));
  const relations = Array.from({ length: count - 1 }, (_v, i) => ({
    sourceAssetId: `${prefix}-${i}`,
    targetAssetId: `${prefix}-${i + 1}`,
    type: 'link',
  }));
  return { options: { mode, source: prefix }, assets, relations };
}
