import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RedisConnection } from '../../common/redis/redis-connection';
import { RedisModule } from '../../common/redis/redis.module';
import { Clock } from '../../common/time/clock';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { InvalidationModule } from '../invalidation/invalidation.module';
import { KeysModule } from '../keys/keys.module';
import { LogsModule } from '../logs/logs.module';
import { BudgetEntity } from './budget.entity';
import { BudgetLedger, MemoryBudgetLedger } from './budget-ledger';
import { BudgetSpendingService } from './budget-spending.service';
import { BudgetsController } from './budgets.controller';
import { BudgetsRepository } from './budgets.repository';
import { BudgetsService } from './budgets.service';
import { RedisBudgetLedger } from './redis-budget-ledger';

// Owns the budgets table and the spend ledger (Redis with REDIS_URL, in process otherwise): budget CRUD and status.
// Exports BudgetsService (MCP reads) and BudgetSpendingService (execution reserves and settles each attempt).
@Module({
  imports: [
    TypeOrmModule.forFeature([BudgetEntity]),
    RedisModule,
    InvalidationModule,
    KeysModule,
    EndpointsModule,
    LogsModule,
  ],
  controllers: [BudgetsController],
  providers: [
    BudgetsRepository,
    BudgetsService,
    BudgetSpendingService,
    {
      provide: BudgetLedger,
      inject: [RedisConnection, Clock],
      useFactory: (redis: RedisConnection, clock: Clock): BudgetLedger =>
        redis.client ? new RedisBudgetLedger(redis.client) : new MemoryBudgetLedger(() => clock.epochNow()),
    },
  ],
  exports: [BudgetsService, BudgetSpendingService],
})
export class BudgetsModule {}
