// Validates Kubernetes manifests offline against the schemas of the Kubernetes OpenAPI document (and of the
// Prometheus Operator's CRDs), as shipped by kubernetes-models. Usage: node scripts/validate-kubernetes.mjs <dir>
// Prints one JSON line {"valid":[{"file","kind","name"}],"errors":[{"file","kind","name","error"}]} and exits 1
// on any error. A kind it does not know is an error: add its model below rather than skip it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { parseAllDocuments } from 'yaml';

const MODELS = new Map(
  [ConfigMap, Secret, Service, Deployment, Job, PodDisruptionBudget, ServiceMonitor].map((model) => [
    `${model.apiVersion}/${model.kind}`,
    model,
  ]),
);

/** kustomization.yaml is kustomize's, not the API server's: its resources must exist and be listed once. */
function checkKustomization(dir, document) {
  const resources = document.resources ?? [];
  const files = new Set(readdirSync(dir));
  const missing = resources.filter((resource) => !files.has(resource));
  if (missing.length) throw new Error(`resources not found: ${missing.join(', ')}`);
  if (new Set(resources).size !== resources.length) throw new Error('a resource is listed twice');
}

const dir = process.argv[2];
const valid = [];
const errors = [];
for (const file of readdirSync(dir)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort()) {
  for (const parsed of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
    const fail = (kind, name, error) => errors.push({ file, kind, name, error });
    if (parsed.errors.length) {
      fail(undefined, undefined, parsed.errors.map((error) => error.message).join('; '));
      continue;
    }
    const document = parsed.toJS();
    if (document === null) continue;
    const { apiVersion, kind, metadata } = document;
    const name = metadata?.name;
    try {
      if (kind === 'Kustomization') checkKustomization(dir, document);
      else {
        const Model = MODELS.get(`${apiVersion}/${kind}`);
        if (!Model) throw new Error(`no schema for ${apiVersion} ${kind}`);
        new Model(document).validate();
      }
      valid.push({ file, kind, name });
    } catch (error) {
      fail(kind, name, error.message);
    }
  }
}
process.stdout.write(`${JSON.stringify({ valid, errors })}\n`);
process.exitCode = errors.length ? 1 : 0;
