import { Body, Controller, Get, Module, Param, Post, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsInt, IsString, MaxLength } from 'class-validator';
import { OrgId } from '../../src/auth/org-id.decorator';
import { ParseIdPipe } from '../../src/database/uuid';
import { Page, PaginationQuery, buildPaginationMeta } from '../../src/pagination/pagination';

class EchoBody {
  @IsString() @MaxLength(10) name: string;
  @IsInt() count: number;
}

/** Routes that exist only in tests, to drive the foundation before (and beside) the resources; not in the document. */
@ApiExcludeController()
@Controller('probe')
class ProbeController {
  @Get()
  whoAmI(@OrgId() organisationId: string) {
    return { organisationId };
  }

  @Get('page')
  page(@Query() query: PaginationQuery) {
    return new Page([{ n: 1 }], buildPaginationMeta(41, query.page ?? 1, query.limit));
  }

  @Get('items/:id')
  item(@Param('id', new ParseIdPipe('Item')) id: string) {
    return { id };
  }

  @Post('echo')
  echo(@Body() body: EchoBody) {
    return body;
  }

  @Get('crash')
  crash(): never {
    throw new Error('relation "secret_table" does not exist at SELECT * FROM secret_table');
  }
}

@Module({ controllers: [ProbeController] })
export class ProbeModule {}
