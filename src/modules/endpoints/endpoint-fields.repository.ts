import { Injectable } from '@nestjs/common';
import { In, Repository } from 'typeorm';
import { InputFieldEntity, OutputFieldEntity } from './endpoint-field.entity';
import { TransactionHost } from '../../database/transactions';

export type InputFieldValues = Omit<InputFieldEntity, 'id' | 'tenantId' | 'endpointId' | 'createdAt'>;
export type OutputFieldValues = Omit<OutputFieldEntity, 'id' | 'tenantId' | 'endpointId' | 'createdAt'>;

@Injectable()
export class EndpointFieldsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /** The open transaction's, when there is one (as for outputs). */
  private get inputs(): Repository<InputFieldEntity> {
    return this.txHost.tx.getRepository(InputFieldEntity);
  }

  private get outputs(): Repository<OutputFieldEntity> {
    return this.txHost.tx.getRepository(OutputFieldEntity);
  }

  inputFieldsOf(tenantId: string, endpointIds: string[]): Promise<InputFieldEntity[]> {
    if (endpointIds.length === 0) return Promise.resolve([]);
    return this.inputs.find({
      where: { tenantId, endpointId: In(endpointIds) },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  outputFieldsOf(tenantId: string, endpointIds: string[]): Promise<OutputFieldEntity[]> {
    if (endpointIds.length === 0) return Promise.resolve([]);
    return this.outputs.find({
      where: { tenantId, endpointId: In(endpointIds) },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  findInput(tenantId: string, endpointId: string, id: string): Promise<InputFieldEntity | null> {
    return this.inputs.findOneBy({ tenantId, endpointId, id });
  }

  findOutput(tenantId: string, endpointId: string, id: string): Promise<OutputFieldEntity | null> {
    return this.outputs.findOneBy({ tenantId, endpointId, id });
  }

  countInputs(tenantId: string, endpointId: string): Promise<number> {
    return this.inputs.countBy({ tenantId, endpointId });
  }

  countOutputs(tenantId: string, endpointId: string): Promise<number> {
    return this.outputs.countBy({ tenantId, endpointId });
  }

  createInput(tenantId: string, endpointId: string, values: InputFieldValues): Promise<InputFieldEntity> {
    return this.inputs.save(this.inputs.create({ ...values, tenantId, endpointId }));
  }

  createOutput(tenantId: string, endpointId: string, values: OutputFieldValues): Promise<OutputFieldEntity> {
    return this.outputs.save(this.outputs.create({ ...values, tenantId, endpointId }));
  }

  /** An update that changes nothing sends no query (TypeORM refuses an UPDATE without values). */
  async updateInput(tenantId: string, id: string, values: Partial<InputFieldValues>): Promise<void> {
    if (Object.keys(values).length === 0) return;
    await this.inputs.update({ tenantId, id }, values as Record<string, unknown>);
  }

  async updateOutput(tenantId: string, id: string, values: Partial<OutputFieldValues>): Promise<void> {
    if (Object.keys(values).length === 0) return;
    await this.outputs.update({ tenantId, id }, values);
  }

  async deleteInput(tenantId: string, id: string): Promise<void> {
    await this.inputs.delete({ tenantId, id });
  }

  async deleteOutput(tenantId: string, id: string): Promise<void> {
    await this.outputs.delete({ tenantId, id });
  }
}
