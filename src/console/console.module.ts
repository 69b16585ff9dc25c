import { DynamicModule, Module, Type } from '@nestjs/common';
import { EmployeesModule } from '../employees/employees.module';
import { EventsFeedModule } from '../events/feed/events-feed.module';
import { PositionsModule } from '../positions/positions.module';
import { PrivacyModule } from '../privacy/privacy.module';
import { RatingsModule } from '../ratings/ratings.module';
import { SkillsModule } from '../skills/skills.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { ActivityController } from './activity/activity.controller';
import { ApiKeysController } from './api-keys/api-keys.controller';
import { AssetsController } from './assets/assets.controller';
import { ConsoleRetentionStep } from './console.retention';
import { EmployeesConsoleController } from './employees/employees.controller';
import { EventsConsoleController } from './events/events.controller';
import { ClientFactsReader } from './http/client';
import { ConsoleGuard } from './http/console.guard';
import { FlashMessages } from './http/flash';
import { ConsolePageInterceptor } from './http/page.interceptor';
import { ConsoleSealer } from './http/sealer';
import { ConsoleNotFoundController } from './not-found.controller';
import { ConsoleUsersRepository } from './people/console-users.repository';
import { PeopleController } from './people/people.controller';
import { PeopleService } from './people/people.service';
import { PositionsConsoleController } from './positions/positions.controller';
import { SessionsRepository } from './sessions/sessions.repository';
import { SessionsService } from './sessions/sessions.service';
import { SignInController } from './sessions/sign-in.controller';
import { SignInService } from './sessions/sign-in.service';
import { SkillsConsoleController } from './skills/skills.controller';
import { SsoSecretsResealingStep } from './sso/sso-secrets.resealing';
import { SsoRepository } from './sso/sso.repository';
import { SsoService } from './sso/sso.service';
import { WebhooksConsoleController } from './webhooks/webhooks.controller';

/** The pages, in the order their routes are matched: the 404 of every other /console path comes last. */
const PAGES: Type[] = [
  AssetsController,
  SignInController,
  ApiKeysController,
  WebhooksConsoleController,
  EventsConsoleController,
  PeopleController,
  ActivityController,
  EmployeesConsoleController,
  SkillsConsoleController,
  PositionsConsoleController,
  ConsoleNotFoundController,
];

export interface ConsoleModuleOptions {
  /** CONSOLE_ENABLED: false serves no page at all (every /console path is then the app's 404). */
  pages: boolean;
}

/**
 * The console (Settings in a browser): people, sessions, single sign-on and the pages. Its services work with the
 * pages off too (the command line invites people); the activity log is audit/'s.
 */
@Module({})
export class ConsoleModule {
  static register({ pages }: ConsoleModuleOptions): DynamicModule {
    return {
      module: ConsoleModule,
      // The features its pages show, through their services.
      imports: [
        WebhooksModule,
        EventsFeedModule,
        EmployeesModule,
        SkillsModule,
        RatingsModule,
        PositionsModule,
        PrivacyModule,
      ],
      controllers: pages ? PAGES : [],
      providers: [
        ClientFactsReader,
        ConsoleSealer,
        FlashMessages,
        ConsolePageInterceptor,
        ConsoleGuard,
        ConsoleUsersRepository,
        PeopleService,
        SessionsRepository,
        SessionsService,
        SignInService,
        SsoRepository,
        SsoService,
        SsoSecretsResealingStep,
        ConsoleRetentionStep,
      ],
      exports: [PeopleService, SsoService],
    };
  }
}
