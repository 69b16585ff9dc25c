import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorCode } from '../errors/errors';

export class FieldErrorSchema {
  @ApiProperty({ example: 'businessEmail' }) field: string;
  @ApiProperty({ example: 'businessEmail must be an email' }) message: string;
}

export class ErrorSchema {
  @ApiProperty({ example: 'Employee not found' }) message: string;
  @ApiProperty({ enum: ErrorCode, enumName: 'ErrorCode', example: ErrorCode.NOT_FOUND }) code: ErrorCode;
  @ApiPropertyOptional({ type: [FieldErrorSchema], description: 'Only on VALIDATION_ERROR' })
  details?: FieldErrorSchema[];
}

/** The body of every error response. */
export class ErrorEnvelope {
  @ApiProperty({ enum: [false] }) success: false;
  @ApiProperty({ type: ErrorSchema }) error: ErrorSchema;
}
