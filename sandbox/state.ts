/**
 * The sandbox's data. The maps are exposed to tests as they are (Sandbox.state), so reset() clears
 * them in place: a test that kept a reference keeps seeing the live state.
 */
import type { CampaignConfig, SandboxState } from './types';

export function createState(): SandboxState {
	return {
		customKeys: new Map(),
		custom: new Map(),
		legacy: new Map(),
		membersV1: new Map(),
		membersV2: new Map(),
		campaigns: new Map(),
		sent: [],
		v1RejectMemberIds: new Map(),
		lockedMembers: new Map(),
	};
}

export function clearState(state: SandboxState): void {
	state.customKeys.clear();
	state.custom.clear();
	state.legacy.clear();
	state.membersV1.clear();
	state.membersV2.clear();
	state.campaigns.clear();
	state.sent.length = 0;
	state.v1RejectMemberIds.clear();
	state.lockedMembers.clear();
}

/** A campaign that sends: linked channel, active profile, approved template, unit price set, no variables. */
export function campaignDefaults(): CampaignConfig {
	return {
		profileState: 'active',
		templateState: 'approved',
		channelLinked: true,
		unitPriceSet: true,
		requiredVariables: [],
		dateVariables: [],
	};
}
