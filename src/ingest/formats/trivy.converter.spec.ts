import { describe, expect, it } from '@jest/globals';
import { converterFor } from './convert-body.js';
import { convertAll, fixture } from './convert-fixtures.js';
import { chooseFormat } from './format-choice.js';

const trivy = () => converterFor(chooseFormat('application/json', 'trivy')!);

const IMAGE = {
  id: 'registry.example.test/shop/web:1.4.2',
  name: 'registry.example.test/shop/web:1.4.2',
  type: 'container-image',
  os_version: 'alpine 3.19.1',
  vulnerabilities: [
    {
      id: 'CVE-2024-5535',
      score: 9.1,
      summary: 'openssl: SSL_select_next_proto buffer overread',
      publishedDate: '2024-06-27',
    },
    {
      id: 'CVE-2023-6129',
      score: 7.1,
      summary: 'openssl: POLY1305 MAC implementation corrupts vector registers on PowerPC',
      publishedDate: '2024-01-09',
    },
    {
      id: 'CVE-2024-2511',
      score: 1,
      summary: 'openssl: Unbounded memory growth with session handling in TLSv1.3',
      publishedDate: '2024-04-08',
    },
    {
      id: 'GHSA-952p-6rrq-rcjv',
      score: 5.3,
      summary: 'micromatch: vulnerable to Regular Expression Denial of Service',
      publishedDate: '2024-05-14',
    },
  ],
};

describe('Trivy', () => {
  it('turns a report into one asset for the image, a vulnerability per distinct id', () => {
    for (const chunkSize of [11, 4096]) {
      expect(convertAll(trivy(), fixture('trivy/shop-web-image.json'), chunkSize)).toEqual([
        { part: 'assets', path: 'hosts[0]', value: IMAGE },
      ]);
    }
  });

  it('reads reports one after another, each named hosts[i]; another artifact type as given', () => {
    const other = {
      SchemaVersion: 2,
      ArtifactName: 'app',
      ArtifactType: 'repository',
      Results: [
        {
          Target: 'go.mod',
          Vulnerabilities: [{ VulnerabilityID: 'cve-2023-39325', Severity: 'HIGH' }],
        },
      ],
    };
    const body = `${fixture('trivy/shop-web-image.json').toString()}\n${JSON.stringify(other)}\n`;
    const items = convertAll(trivy(), body);
    expect(items.map((item) => item.path)).toEqual(['hosts[0]', 'hosts[1]']);
    expect(items[1].value).toEqual({
      id: 'app',
      name: 'app',
      type: 'repository',
      vulnerabilities: [{ id: 'CVE-2023-39325', score: 7, summary: null, publishedDate: null }],
    });
  });

  it('gives a clean image an empty list, and refuses schema version 1', () => {
    const clean = {
      SchemaVersion: 2,
      ArtifactName: 'alpine:3.20',
      ArtifactType: 'container_image',
      Results: [],
    };
    expect(convertAll(trivy(), JSON.stringify(clean))[0].value).toEqual({
      id: 'alpine:3.20',
      name: 'alpine:3.20',
      type: 'container-image',
      vulnerabilities: [],
    });
    expect(() => convertAll(trivy(), '[{"Target": "x", "Vulnerabilities": null}]')).toThrow(
      'hosts[0] must be a Trivy report object (trivy image -f json, schema version 2); an array is what schema version 1 wrote',
    );
    expect(() => convertAll(trivy(), '{"SchemaVersion": 3, "ArtifactName": "x"}')).toThrow(
      "hosts[0].SchemaVersion is 3: only Trivy's schema version 2 is read",
    );
  });
});
