import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

import type { InputDataType, NestedOutputField, OutputDataType, OutputItemDefinition } from './field-types';

export { INPUT_DATA_TYPES, type InputDataType, OUTPUT_DATA_TYPES, type OutputDataType } from './field-types';

@Entity('input_fields')
export class InputFieldEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') tenantId: string;
  @Column('uuid') endpointId: string;
  @Column() name: string;
  @Column({ type: 'varchar' }) dataType: InputDataType;
  @Column() isRequired: boolean;
  @Column() description: string;
  @Column({ type: 'int', nullable: true }) maxLength: number | null;
  @Column({ type: 'double precision', nullable: true }) minimum: number | null;
  @Column({ type: 'double precision', nullable: true }) maximum: number | null;
  @Column({ type: 'jsonb', nullable: true }) defaultValue: unknown;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}

@Entity('output_fields')
export class OutputFieldEntity {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') tenantId: string;
  @Column('uuid') endpointId: string;
  @Column() name: string;
  @Column({ type: 'varchar' }) dataType: OutputDataType;
  @Column() description: string;
  @Column({ type: 'text', nullable: true }) exampleValue: string | null;
  @Column({ type: 'jsonb', nullable: true }) enum: string[] | null;
  @Column({ type: 'double precision', nullable: true }) minimum: number | null;
  @Column({ type: 'double precision', nullable: true }) maximum: number | null;
  @Column({ type: 'int', nullable: true }) maxLength: number | null;
  @Column({ type: 'jsonb', nullable: true }) properties: NestedOutputField[] | null;
  @Column({ type: 'jsonb', nullable: true }) items: OutputItemDefinition | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt: Date;
}
