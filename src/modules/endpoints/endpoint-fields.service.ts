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
import {
  INPUT_FIELD_DEFAULTS,
  OUTPUT_FIELD_DEFAULTS,
  type EndpointDefinition,
  type InputField,
  type OutputField,
} from './endpoint-definition';
import { EndpointsService, stripUndefined } from './endpoints.service';
import { fieldCountProblem, inputFieldProblems, outputFieldProblems } from './field-rules';
import { EndpointErrors } from './endpoints.errors';

export type NewInputField = Pick<InputFieldValues, 'name' | 'dataType'> & Partial<InputFieldValues>;
export type NewOutputField = Pick<OutputFieldValues, 'name' | 'dataType'> & Partial<OutputFieldValues>;

/** What differs between input and output fields; adding, changing and removing either follows the same steps. */
interface FieldKind<
  Field extends { id: string; name: string },
  Values extends Omit<Field, 'id'> & { name: string },
  Response,
> {
  /** The definition's list of this kind, which a refusal of one field too many names. */
  list: 'inputFields' | 'outputFields';
  of: (definition: EndpointDefinition) => Field[];
  /** How a missing field of this kind is named. */
  label: string;
  defaults: Partial<Values>;
  problems: (field: Omit<Field, 'id'>) => string[];
  count: (tenantId: string, endpointId: string) => Promise<number>;
  create: (tenantId: string, endpointId: string, values: Values) => Promise<Field>;
  update: (tenantId: string, id: string, values: Partial<Values>) => Promise<void>;
  remove: (tenantId: string, id: string) => Promise<void>;
  toResponse: (field: Field) => Response;
}

@Injectable()
export class EndpointFieldsService {
  private readonly inputs: FieldKind<InputField, InputFieldValues, InputFieldResponse>;
  private readonly outputs: FieldKind<OutputField, OutputFieldValues, OutputFieldResponse>;

  constructor(
    private readonly endpoints: EndpointsService,
    private readonly fields: EndpointFieldsRepository,
    private readonly txHost: TransactionHost,
  ) {
    this.inputs = {
      list: 'inputFields',
      of: (definition) => definition.inputFields,
      label: 'Input',
      defaults: INPUT_FIELD_DEFAULTS,
      problems: inputFieldProblems,
      count: (tenantId, endpointId) => fields.countInputs(tenantId, endpointId),
      create: (tenantId, endpointId, values) => fields.createInput(tenantId, endpointId, values),
      update: (tenantId, id, values) => fields.updateInput(tenantId, id, values),
      remove: (tenantId, id) => fields.deleteInput(tenantId, id),
      toResponse: toInputFieldResponse,
    };
    this.outputs = {
      list: 'outputFields',
      of: (definition) => definition.outputFields,
      label: 'Output',
      defaults: OUTPUT_FIELD_DEFAULTS,
      problems: outputFieldProblems,
      count: (tenantId, endpointId) => fields.countOutputs(tenantId, endpointId),
      create: (tenantId, endpointId, values) => fields.createOutput(tenantId, endpointId, values),
      update: (tenantId, id, values) => fields.updateOutput(tenantId, id, values),
      remove: (tenantId, id) => fields.deleteOutput(tenantId, id),
      toResponse: toOutputFieldResponse,
    };
  }

  addInput(tenantId: string, endpointId: string, input: NewInputField): Promise<InputFieldResponse> {
    return this.add(this.inputs, tenantId, endpointId, input);
  }

  updateInput(
    tenantId: string,
    endpointId: string,
    id: string,
    changes: Partial<InputFieldValues>,
  ): Promise<InputFieldResponse> {
    return this.update(this.inputs, tenantId, endpointId, id, changes);
  }

  deleteInput(tenantId: string, endpointId: string, id: string): Promise<void> {
    return this.delete(this.inputs, tenantId, endpointId, id);
  }

  addOutput(tenantId: string, endpointId: string, input: NewOutputField): Promise<OutputFieldResponse> {
    return this.add(this.outputs, tenantId, endpointId, input);
  }

  updateOutput(
    tenantId: string,
    endpointId: string,
    id: string,
    changes: Partial<OutputFieldValues>,
  ): Promise<OutputFieldResponse> {
    return this.update(this.outputs, tenantId, endpointId, id, changes);
  }

  deleteOutput(tenantId: string, endpointId: string, id: string): Promise<void> {
    return this.delete(this.outputs, tenantId, endpointId, id);
  }

  private async add<F extends { id: string; name: string }, V extends Omit<F, 'id'> & { name: string }, R>(
    kind: FieldKind<F, V, R>,
    tenantId: string,
    endpointId: string,
    input: Partial<V>,
  ): Promise<R> {
    const existing = kind.of(await this.endpoints.getDefinition(tenantId, endpointId));
    const values = { ...kind.defaults, ...stripUndefined(input) } as V;
    check(kind.problems(values));
    ensureNameFree(existing, values.name);
    const created = await this.txHost.withTransaction(async () => {
      await this.endpoints.lockForFieldChange(tenantId, endpointId);
      refuse(kind.list, fieldCountProblem(kind.list, await kind.count(tenantId, endpointId)));
      return kind.create(tenantId, endpointId, values);
    });
    await this.endpoints.notifyDefinitionChanged(tenantId, endpointId);
    return kind.toResponse(created);
  }

  private async update<F extends { id: string; name: string }, V extends Omit<F, 'id'> & { name: string }, R>(
    kind: FieldKind<F, V, R>,
    tenantId: string,
    endpointId: string,
    id: string,
    changes: Partial<V>,
  ): Promise<R> {
    const existing = kind.of(await this.endpoints.getDefinition(tenantId, endpointId));
    const field = findField(existing, id, kind.label);
    const values = stripUndefined(changes);
    check(kind.problems({ ...field, ...values }));
    if (values.name !== undefined && values.name !== field.name) ensureNameFree(existing, values.name);
    await kind.update(tenantId, id, values);
    await this.endpoints.notifyDefinitionChanged(tenantId, endpointId);
    return kind.toResponse({ ...field, ...values });
  }

  private async delete<F extends { id: string; name: string }, V extends Omit<F, 'id'> & { name: string }, R>(
    kind: FieldKind<F, V, R>,
    tenantId: string,
    endpointId: string,
    id: string,
  ): Promise<void> {
    const existing = kind.of(await this.endpoints.getDefinition(tenantId, endpointId));
    findField(existing, id, kind.label);
    await kind.remove(tenantId, id);
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
