import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

const ROOT = join(__dirname, '..', '..');
const MANIFESTS = join(ROOT, 'deploy', 'kubernetes');

interface Report {
  valid: { file: string; kind: string; name?: string }[];
  errors: { file: string; kind?: string; name?: string; error: string }[];
}

/** The offline schema validation CI runs (scripts/validate-kubernetes.mjs, kubernetes-models' schemas). */
function validate(dir: string): { status: number | null; report: Report } {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'validate-kubernetes.mjs'), dir], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (!run.stdout) throw new Error(`the validator printed nothing:\n${run.stderr}`);
  return { status: run.status, report: JSON.parse(run.stdout) as Report };
}

type Manifest = Record<string, any>;

function manifests(file: string): Manifest[] {
  return parseAllDocuments(readFileSync(join(MANIFESTS, file), 'utf8')).map((document) => document.toJS());
}

function container(file: string): Manifest {
  return manifests(file)[0].spec.template.spec.containers[0];
}

describe('Kubernetes manifests (deploy/kubernetes)', () => {
  it('all conform to the Kubernetes and Prometheus Operator schemas', () => {
    const { status, report } = validate(MANIFESTS);
    expect(report.errors).toEqual([]);
    expect(status).toBe(0);
    expect(report.valid.map(({ kind, name }) => `${kind} ${name ?? ''}`.trim()).sort()).toEqual([
      'ConfigMap skills-service',
      'Deployment skills-service-api',
      'Deployment skills-service-worker',
      'Job skills-service-migrate',
      'Kustomization',
      'PodDisruptionBudget skills-service-api',
      'PodDisruptionBudget skills-service-worker',
      'Secret skills-service',
      'Service skills-service-api',
      'Service skills-service-worker',
      'ServiceMonitor skills-service',
    ]);
  });

  it('the validator rejects a manifest that breaks the schema', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skills-k8s-'));
    try {
      writeFileSync(
        join(dir, 'bad.yaml'),
        'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: bad\nspec:\n  template:\n    spec:\n' +
          '      containers:\n        - name: api\n          ports:\n            - containerPort: http\n',
      );
      const { status, report } = validate(dir);
      expect(status).toBe(1);
      expect(report.errors).toEqual([
        expect.objectContaining({ file: 'bad.yaml', kind: 'Deployment', error: expect.stringMatching(/selector/) }),
      ]);
      expect(report.errors[0].error).toMatch(/containerPort must be integer/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the API pod’s shutdown in step with SHUTDOWN_DELAY_MS and SHUTDOWN_TIMEOUT_MS', () => {
    const settings = manifests('configmap.yaml')[0].data as Record<string, string>;
    const [deployment] = manifests('api-deployment.yaml');
    const api = container('api-deployment.yaml');
    const preStopSeconds: number = api.lifecycle.preStop.sleep.seconds;
    expect(preStopSeconds * 1000).toBe(Number(settings.SHUTDOWN_DELAY_MS));
    expect(deployment.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(
      preStopSeconds + Number(settings.SHUTDOWN_TIMEOUT_MS) / 1000,
    );
    const [worker] = manifests('worker-deployment.yaml');
    expect(worker.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(
      Number(settings.SHUTDOWN_TIMEOUT_MS) / 1000,
    );
  });

  it('probes the health routes, serves metrics on 9464 and runs as a non-root user', () => {
    const settings = manifests('configmap.yaml')[0].data as Record<string, string>;
    expect(settings.METRICS_PORT).toBe('9464');
    const api = container('api-deployment.yaml');
    expect(api.readinessProbe.httpGet.path).toBe('/health/ready');
    expect(api.livenessProbe.httpGet.path).toBe('/health/live');
    expect(api.env).toContainEqual({ name: 'DISPATCH_MODE', value: 'off' });
    expect(container('worker-deployment.yaml').env).toContainEqual({ name: 'DISPATCH_MODE', value: 'worker' });
    for (const file of ['api-deployment.yaml', 'worker-deployment.yaml', 'migrate-job.yaml']) {
      const [workload] = manifests(file);
      expect(workload.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
      const main = container(file);
      expect(main.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
      expect(main.resources.requests).toBeDefined();
      expect(main.resources.limits.memory).toBeDefined();
      expect(main.envFrom).toEqual([
        { configMapRef: { name: 'skills-service' } },
        { secretRef: { name: 'skills-service' } },
      ]);
    }
    expect(container('migrate-job.yaml').command).toEqual(['node', 'dist/cli.js', 'db', 'migrate', '--json']);
    for (const file of ['api-deployment.yaml', 'worker-deployment.yaml']) {
      expect(container(file).ports).toContainEqual({ name: 'metrics', containerPort: 9464 });
    }
    const [monitor] = manifests('service-monitor.yaml');
    expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics' })]);
  });
});
