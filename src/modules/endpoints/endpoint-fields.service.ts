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
import {
  fieldCountProblem,
  inputFieldProblems,
  outputFieldProblems,
  outputFieldWeight,
  type NestedFieldInput,
  type OutputItemInput,
  toNestedField,
  toOutputItem,
} from './field-rules';
import { EndpointErrors } from './endpoints.errors';

export type NewInputField = Pick<InputFieldValues, 'name' | 'dataType'> & Partial<InputFieldValues>;
/** Output field values as a request gives them: nested definitions may omit what they do not set. */
export type OutputFieldChanges = Omit<Partial<OutputFieldValues>, 'properties' | 'items'> & {
  properties?: NestedFieldInput[] | null;
  items?: OutputItemInput | null;
};
export type NewOutputField = Pick<OutputFieldValues, 'name' | 'dataType'> & OutputFieldChanges;

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
  /** How many fields one counts toward the endpoint's limit (an output field's nested ones count too). */
  weight: (field: Omit<Field, 'id'>) => number;
  /** The fields of the endpoint, nested ones included. */
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
      weight: () => 1,
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
      weight: outputFieldWeight,
      count: async (tenantId, endpointId) =>
        (await fields.outputFieldsOf(tenantId, [endpointId])).reduce((sum, field) => sum + outputFieldWeight(field), 0),
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
    return this.add(this.outputs, tenantId, endpointId, {
      ...normalizeOutput(input),
      name: input.name,
      dataType: input.dataType,
    });
  }

  updateOutput(
    tenantId: string,
    endpointId: string,
    id: string,
    changes: OutputFieldChanges,
  ): Promise<OutputFieldResponse> {
    return this.update(this.outputs, tenantId, endpointId, id, normalizeOutput(changes));
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
      const count = await kind.count(tenantId, endpointId);
      refuse(kind.list, fieldCountProblem(kind.list, count, kind.weight(values)));
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
    const before = kind.weight(field);
    const after = kind.weight({ ...field, ...values });
    if (after > before) {
      // More nested fields than before: counted against the limit as an added field is.
      await this.txHost.withTransaction(async () => {
        await this.endpoints.lockForFieldChange(tenantId, endpointId);
        const others = (await kind.count(tenantId, endpointId)) - before;
        refuse(kind.list, fieldCountProblem(kind.list, others, after));
        await kind.update(tenantId, id, values);
      });
    } else {
      await kind.update(tenantId, id, values);
    }
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
/** Nested definitions with every attribute listed (null when not given), as they are stored and answered. */
function normalizeOutput(values: OutputFieldChanges): Partial<OutputFieldValues> {
  const { properties, items, ...rest } = values;
  return {
    ...rest,
    ...(properties !== undefined ? { properties: properties && properties.map(toNestedField) } : {}),
    ...(items !== undefined ? { items: items && toOutputItem(items) } : {}),
  };
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
