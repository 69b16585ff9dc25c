import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import type { AuthenticatedKey } from '../api-keys.service';
import type { Organisation } from '../entities/organisation.entity';
import { API_SCOPES, ApiScope } from '../scopes';

@ApiSchema({ name: 'MeOrganisation' })
export class MeOrganisationResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty()
  name: string;
}

@ApiSchema({ name: 'MeApiKey' })
export class MeApiKeyResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;
  @ApiProperty({ type: String, nullable: true, description: 'The name the key was created with, if any' })
  name: string | null;
  @ApiProperty({ enum: API_SCOPES, enumName: 'ApiScope', isArray: true, description: 'What the key may do' })
  scopes: ApiScope[];
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'After it the key is refused (401); null: it does not expire',
  })
  expiresAt: string | null;
}

/** Who is calling: the organisation and the key of the request. */
@ApiSchema({ name: 'Me' })
export class MeResponse {
  @ApiProperty({ type: MeOrganisationResponse })
  organisation: MeOrganisationResponse;
  @ApiProperty({ type: MeApiKeyResponse })
  apiKey: MeApiKeyResponse;
}

export function toMeResponse(organisation: Organisation, key: AuthenticatedKey): MeResponse {
  return {
    organisation: { id: organisation.id, name: organisation.name },
    apiKey: {
      id: key.keyId,
      name: key.name,
      scopes: [...key.scopes],
      expiresAt: key.expiresAt?.toISOString() ?? null,
    },
  };
}
