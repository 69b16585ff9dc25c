import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'organisations' })
export class Organisation {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt: Date;
}
