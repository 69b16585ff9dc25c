/**
 * The stack floor (issue 51): the cheapest correct app on the design card's own pieces, so that what the service
 * spends beyond it is ours to improve. Bare NestJS 11 on Express (its default JSON body parser, ETag off as the
 * service has it) with, on the routes of the hot scenarios:
 *
 *   - the service's own DTO classes (src/) under its ValidationPipe (createValidationPipe: its options);
 *   - @nestjs/throttler's ThrottlerGuard with its in-memory storage, one counter per client (RATE_LIMIT_PER_MINUTE);
 *   - the API-key check as the raw baseline does it: the key looked up by hash on every request, then its expiry
 *     and scope;
 *   - one pino access-log line per request, in the service's logger settings (LOG_LEVEL, as the service: none
 *     below `info`);
 *   - the raw baseline's statements (bench/baseline-server.ts builds them) through a TypeORM DataSource, each write
 *     in a query-runner transaction whose closing statements travel with COMMIT, as the service's Database sends
 *     them (a keyed POST's claim goes alone after BEGIN, as the service sends it).
 *
 * Nothing else: no interceptors, no envelope beyond the baseline's, no events but the baseline's outbox rows, no
 * metrics, no helmet, no request id. Routes: GET and PATCH /api/v1/employees/:id, GET and POST /api/v1/employees,
 * POST /api/v1/employees/:id/ratings. `npm run bench` measures it beside the framework floor, and compare-builds
 * and instructions.ts take it by the name `stack`.
 *
 * Env: DATABASE_URL, PORT (3905), BASELINE_POOL_SIZE (the service's 10), RATE_LIMIT_PER_MINUTE (1000), LOG_LEVEL
 * (info). Not part of the service.
 */
import 'reflect-metadata';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  ArgumentsHost,
  Body,
  CanActivate,
  Catch,
  Controller,
  ExceptionFilter,
  ExecutionContext,
  Get,
  Headers,
  HttpCode,
  Injectable,
  Module,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import type { Response } from 'express';
import type { ClientBase } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { createDataSourceOptions } from '../src/database/data-source-options';
import type { Database } from '../src/database/database';
import { CreateEmployeeDto } from '../src/employees/dto/create-employee.dto';
import type { EmployeeFields } from '../src/employees/dto/employee.response';
import { ListEmployeesQuery } from '../src/employees/dto/list-employees.query';
import { UpdateEmployeeDto } from '../src/employees/dto/update-employee.dto';
import { employeeLockStatement, EmployeesRepository } from '../src/employees/employees.repository';
import { createPinoLogger } from '../src/http/logging';
import { requestFingerprint } from '../src/idempotency/request-fingerprint';
import { CreateRatingDto } from '../src/ratings/dto/create-rating.dto';
import { createValidationPipe } from '../src/validation/validation';
import {
  claimStatement,
  createdOutcome,
  EMPLOYEE_DETAIL,
  employeeDetail,
  employeeInsert,
  employeesPage,
  FINGERPRINT_KEY,
  HttpError,
  KeptRow,
  keptAnswer,
  newEmployee,
  pageMeta,
  RatedRow,
  ratingInsert,
  ratingOutcome,
  Statement,
  titleChange,
  toEmployee,
  UUID,
} from './baseline-server';

const SERVICE_POOL_SIZE = 10;

interface KeyedRequest extends IncomingMessage {
  organisationId: string;
}

/** The raw baseline's key check (organisationOf), its lookup through the DataSource. */
@Injectable()
class BaselineKeyGuard implements CanActivate {
  constructor(private readonly dataSource: DataSource) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<KeyedRequest>();
    const match = /^bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
    if (!match) throw new HttpError(401, 'UNAUTHORIZED');
    const hash = createHash('sha256').update(match[1]).digest('hex');
    const [key] = await this.dataSource.query<{ organisation_id: string; scopes: string[]; expires_at: Date | null }[]>(
      'SELECT organisation_id, scopes, expires_at FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [hash],
    );
    if (!key || (key.expires_at !== null && key.expires_at.getTime() <= Date.now())) {
      throw new HttpError(401, 'UNAUTHORIZED');
    }
    if (!key.scopes.includes(request.method === 'GET' ? 'read' : 'write')) throw new HttpError(403, 'FORBIDDEN');
    request.organisationId = key.organisation_id;
    return true;
  }
}

/** The baseline's error envelope, for its errors and the ValidationPipe's (an AppError: `status`, `code`). */
@Catch()
class BaselineErrorFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const { status, code } = errorOf(error);
    if (status >= 500) console.error(error);
    response.status(status).json({ success: false, error: { message: code, code } });
  }
}

function errorOf(error: unknown): { status: number; code: string } {
  if (error instanceof HttpError) return error;
  const known = error as { status?: unknown; code?: unknown; getStatus?: () => number };
  if (typeof known.getStatus === 'function') return { status: known.getStatus(), code: 'HTTP_ERROR' };
  if (typeof known.status === 'number' && typeof known.code === 'string') {
    return { status: known.status, code: known.code };
  }
  return { status: 500, code: 'INTERNAL_ERROR' };
}

/** A transaction as the service's Database runs one: a query runner, the closing statements sent with COMMIT. */
async function inTransaction<T>(
  dataSource: DataSource,
  work: (manager: EntityManager) => Promise<{ answer: T; closing: Statement[] }>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  try {
    await runner.startTransaction();
    const { answer, closing } = await work(runner.manager);
    const connection = (await runner.connect()) as ClientBase;
    const sent = closing.map(({ text, values }) => connection.query(text, values));
    const settled = await Promise.allSettled([...sent, runner.commitTransaction()]);
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return answer;
  } catch (error) {
    await runner.rollbackTransaction().catch(() => undefined);
    throw error;
  } finally {
    await runner.release();
  }
}

/** An id the baseline takes: a UUID, lower-cased; anything else is 404. */
function idOf(id: string): string {
  if (!UUID.test(id)) throw new HttpError(404, 'NOT_FOUND');
  return id.toLowerCase();
}

@Controller('api/v1/employees')
class EmployeesController {
  private readonly employees: EmployeesRepository;

  constructor(private readonly dataSource: DataSource) {
    const database = { manager: (transaction?: EntityManager) => transaction ?? dataSource.manager };
    this.employees = new EmployeesRepository(database as unknown as Database);
  }

  @Get(':id')
  async get(@Req() { organisationId }: KeyedRequest, @Param('id') id: string): Promise<object> {
    const rows = await this.dataSource.query<Record<string, unknown>[]>(EMPLOYEE_DETAIL, [organisationId, idOf(id)]);
    return { success: true, data: employeeDetail(rows) };
  }

  @Get()
  async list(@Req() { organisationId }: KeyedRequest, @Query() query: ListEmployeesQuery): Promise<object> {
    const page = query.page ?? 1;
    const { page: pageStatement, count } = employeesPage(organisationId, page, query.limit, query.search ?? null);
    const rows = await this.dataSource.query<Record<string, unknown>[]>(pageStatement.text, pageStatement.values);
    const [{ total }] = await this.dataSource.query<{ total: number }[]>(count.text, count.values);
    return { success: true, data: rows.map(toEmployee), meta: pageMeta(total, page, query.limit) };
  }

  @Post()
  async create(
    @Req() { organisationId }: KeyedRequest,
    @Body() body: CreateEmployeeDto,
    @Headers('idempotency-key') key: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<object> {
    const now = new Date();
    const { status, payload } = await inTransaction(this.dataSource, async (manager) => {
      let keyed: { key: string; fingerprint: string } | undefined;
      if (key !== undefined) {
        const kept = keptAnswer(await manager.query<KeptRow[]>(claimStatement(organisationId, key, now)));
        if (kept) return { answer: kept, closing: [] };
        keyed = { key, fingerprint: requestFingerprint(FINGERPRINT_KEY, 'POST', '/api/v1/employees', body) };
      }
      const employee = newEmployee(body, now);
      const insert = employeeInsert(organisationId, employee, now);
      await manager.query(insert.text, insert.values).catch((error: unknown) => {
        const { driverError } = error as { driverError?: { code?: string } };
        throw driverError?.code === '23505' ? new HttpError(409, 'CONFLICT') : error;
      });
      return createdOutcome(organisationId, employee, now, keyed);
    });
    response.status(status);
    return payload;
  }

  @Patch(':id')
  async update(
    @Req() { organisationId }: KeyedRequest,
    @Param('id') id: string,
    @Body() body: UpdateEmployeeDto,
  ): Promise<object> {
    const employeeId = idOf(id);
    const data = await inTransaction(this.dataSource, async (manager) => {
      const select = employeeLockStatement(organisationId, employeeId);
      const rows = await manager.query<EmployeeFields[]>(select.text, select.values);
      return titleChange(organisationId, employeeId, rows, body.title ?? null, (changed, now) =>
        this.employees.update(organisationId, changed, now, manager),
      );
    });
    return { success: true, data };
  }

  @Post(':id/ratings')
  @HttpCode(201)
  async rate(
    @Req() { organisationId }: KeyedRequest,
    @Param('id') id: string,
    @Body() body: CreateRatingDto,
  ): Promise<object> {
    const employeeId = idOf(id);
    if (!UUID.test(body.skillId)) throw new HttpError(404, 'NOT_FOUND');
    const data = await inTransaction(this.dataSource, async (manager) => {
      const statement = ratingInsert(organisationId, employeeId, body);
      const rows = await manager.query<RatedRow[]>(statement.text, statement.values);
      return ratingOutcome(organisationId, employeeId, statement, rows);
    });
    return { success: true, data };
  }
}

function stackFloorModule(dataSource: DataSource) {
  @Module({
    imports: [
      ThrottlerModule.forRoot({
        throttlers: [{ ttl: 60_000, limit: Number(process.env.RATE_LIMIT_PER_MINUTE ?? 1000) }],
        // As the service's options: one counter per client across every route.
        generateKey: (_context, tracker) => tracker,
      }),
    ],
    controllers: [EmployeesController],
    providers: [
      { provide: DataSource, useValue: dataSource },
      { provide: APP_GUARD, useClass: ThrottlerGuard },
      { provide: APP_GUARD, useClass: BaselineKeyGuard },
    ],
  })
  class StackFloorModule {}
  return StackFloorModule;
}

/** The access log: one pino line per finished request, as the service writes it when LOG_LEVEL allows. */
function accessLog() {
  const logger = createPinoLogger({ logLevel: process.env.LOG_LEVEL ?? 'info', logFormat: 'json' });
  const logs = logger.isLevelEnabled('info');
  return (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
    if (logs) {
      const started = performance.now();
      response.once('close', () => {
        const ms = Math.round(performance.now() - started);
        const path = (request.url ?? '').split('?')[0];
        logger.info(
          { req: { method: request.method, path }, res: { statusCode: response.statusCode }, responseTime: ms },
          `${request.method} ${path} ${response.statusCode} ${ms}ms`,
        );
      });
    }
    next();
  };
}

/** The stack floor on `databaseUrl`, not yet listening; closing it ends its pool. */
export async function createStackFloor(databaseUrl: string): Promise<NestExpressApplication> {
  const poolSize = Number(process.env.BASELINE_POOL_SIZE ?? SERVICE_POOL_SIZE);
  const dataSource = await new DataSource({
    ...createDataSourceOptions(databaseUrl, poolSize),
    entities: [],
  }).initialize();
  const app = await NestFactory.create<NestExpressApplication>(stackFloorModule(dataSource), { logger: ['error'] });
  app.set('etag', false);
  app.disable('x-powered-by');
  app.use(accessLog());
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new BaselineErrorFilter());
  const close = app.close.bind(app);
  app.close = async () => {
    await close();
    await dataSource.destroy();
  };
  return app;
}

if (require.main === module) {
  const port = Number(process.env.PORT ?? 3905);
  createStackFloor(process.env.DATABASE_URL ?? '')
    .then(async (app) => {
      // An exit of its own on SIGTERM, so `node --cpu-prof` writes the profile (bench/profile.ts).
      process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
      await app.listen(port, '127.0.0.1');
      console.log(`stack floor listening on ${port}`);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
