import { Injectable } from '@nestjs/common';
import { ValidationError } from '../../common/errors/app-error';
import { TransactionHost } from '../../database/transactions';
import {
  InputFieldResponse,
  OutputFieldResponse,
  toInputFieldResponse,
  toOutputFieldResponse,
} from './dto/endpoint.response';
import { EndpointFieldsRepository, InputFieldValues, OutputFieldValues } from './endpoint-fields.repository';
import { EndpointsService, stripUndefined } from './endpoints.service';
import { fieldCountProblem, inputFieldProblems, outputFieldProblems } from './field-rules';
import { EndpointErrors } from './endpoints.errors';

export type NewInputField = Pick<InputFieldValues, 'name' | 'dataType'> & Partial<InputFieldValues>;
export type NewOutputField = Pick<OutputFieldValues, 'name' | 'dataType'> & Partial<OutputFieldValues>;

@Injectable()
export class EndpointFieldsService {
  constructor(
    private readonly endpoints: EndpointsService,
    private readonly fields: EndpointFieldsRepository,
    private readonly txHost: TransactionHost,
  ) {}

  async addInput(tenantId: string, endpointId: string, input: NewInputField): Promise<InputFieldResponse> {
    const { inputFields } = await this.endpoints.getDefinition(tenantId, endpointId);
    const values: InputFieldValues = {
      isRequired: false,
      description: '',
      maxLength: null,
      minimum: null,
      maximum: null,
      defaultValue: null,
      ...stripUndefined(input),
    } as InputFieldValues;
    check(inputFieldProblems(values));
    ensureNameFree(inputFields, values.name);
    const created = await this.txHost.withTransaction(async () => {
      await this.endpoints.lockForFieldChange(tenantId, endpointId);
      refuse('inputFields', fieldCountProblem('inputFields', await this.fields.countInputs(tenantId, endpointId)));
      return this.fields.createInput(tenantId, endpointId, values);
    });
    await this.endpoints.notifyDefinitionChanged(tenantId, endpointId);
    return toInputFieldResponse(created);
  }

  async updateInput(
    tenantId: string,
    endpointId: string,
    id: string,
    changes: Partial<InputFieldValues>,
  ): Promise<InputFieldResponse> {
    const { inputFields } = await this.endpoints.getDefinition(tenantId, endpointId);
    const field = findField(inputFields, id, 'Input');
    const values = stripUndefined(changes);
    check(inputFieldProblems({ ...field, ...values }));
    if (values.name !== undefined && values.name !== field.name) ensureNameFree(inputFields, values.name);
    await this.fields.updateInput(tenantId, id, values);
    await this.endpoints.notifyDefinitionChanged(tenantId, endpointId);
    return toInputFieldResponse({ ...field, ...values });
  }

  async deleteInput(tenantId: string, endpointId: string, id: string): Promise<void> {
    const { inputFields } = await this.endpoints.getDefinition(tenantId, endpointId);
    findField(inputFields, id, 'Input');
    await this.fields.deleteInput(tenantId, id);
    await this.endpoints.notifyDefinitionChanged(tenantId, endpointId);
  }

  async addOutput(tenantId: string, endpointId: string, input: NewOutputField): Promise<OutputFieldResponse> {
    const { outputFields } = await this.endpoints.getDefinition(tenantId, endpointId);
    const values: OutputFieldValues = {
      description: '',
      exampleValue: null,
      ...stripUndefined(input),
    } as OutputFieldValues;
    check(outputFieldProblems(values));
    ensureNameFree(outputFields, values.name);
    const created = await this.txHost.withTransaction(async () => {
      await this.endpoints.lockForFieldChange(tenantId, endpointId);
      refuse('outputFields', fieldCountProblem('outputFields', await this.fields.countOutputs(tenantId, endpointId)));
      return this.fields.createOutput(tenantId, endpointId, values);
    });
    await this.endpoints.notifyDefinitionChanged(tenantId, endpointId);
    return toOutputFieldResponse(created);
  }

  async updateOutput(
    tenantId: string,
    endpointId: string,
    id: string,
    changes: Partial<OutputFieldValues>,
  ): Promise<OutputFieldResponse> {
    const { outputFields } = await this.endpoints.getDefinition(tenantId, endpointId);
    const field = findField(outputFields, id, 'Output');
    const values = stripUndefined(changes);
    check(outputFieldProblems({ ...field, ...values }));
    if (values.name !== undefined && values.name !== field.name) ensureNameFree(outputFields, values.name);
    await this.fields.updateOutput(tenantId, id, values);
    await this.endpoints.notifyDefinitionChanged(tenantId, endpointId);
    return toOutputFieldResponse({ ...field, ...values });
  }

  async deleteOutput(tenantId: string, endpointId: string, id: string): Promise<void> {
    const { outputFields } = await this.endpoints.getDefinition(tenantId, endpointId);
    findField(outputFields, id, 'Output');
    await this.fields.deleteOutput(tenantId, id);
    await this.endpoints.notifyDefinitionChanged(tenantId, endpointId);
  }
}

function refuse(field: string, problem: string | null): void {
  if (problem !== null) throw new ValidationError(problem, field);
}

function check(problems: string[]): void {
  if (problems.length > 0) throw new ValidationError(problems, problems[0].split(' ')[0]);
}

function ensureNameFree(fields: { name: string }[], name: string): void {
  if (fields.some((f) => f.name === name)) throw EndpointErrors.fieldNameTaken(name);
}

function findField<T extends { id: string }>(fields: T[], id: string, kind: string): T {
  const field = fields.find((f) => f.id === id);
  if (!field) throw EndpointErrors.fieldNotFound(kind, id);
  return field;
}
