// The content API's resources: members with their JSON types, relations with their select keys and targets, and what
// a search expression may name on them. Each line cites where it was read; where sources disagree, the note says
// which wins. The SDK models (aprimo-js) are typed from the service's own OpenAPI document, so for a member's type
// they win over a sample in a tutorial; the spec wins over both for anything it states.
import { ACCESSORS_BY_DATA_TYPE, SEARCH_PROPERTIES, type QueryTarget } from '../search';
import type { ResourceEntry, Source } from './model';
import { CORE_DOCS, NOTES_CORE, NOTES_FILES, RECORD_DOCS, SELECT_DOCS, client, contract, docs, members, notes, relations, sdkModel, sdkModule, spec } from './sources';

const SPEC_REPR = spec('Resources and their fields, Common representation rules');
const SPEC_SELECT = spec('Endpoints, Selecting (request headers)');
const SPEC_SEARCH = spec('Endpoints, Search expressions (filter, sort, advanced search)');
const NOTES_SEARCH = notes('Search expressions in the wild');
const CONTRACT_IDS = contract('Identifiers: users and user groups');
const SETTINGCATEGORY_DOCS = docs('https://training3.dam.aprimo.com/api/core/docs/resources/settingcategory');
const FILETYPE_DOCS = docs('https://training3.dam.aprimo.com/api/core/docs/resources/filetype');
/** The content subscriptions page of the service's documentation (its subscribe body, its response, its enums). */
const CONTENTSUBSCRIPTION_DOCS = docs('https://training3.dam.aprimo.com/api/core/docs/resources/contentsubscriptions.html');

const searchable = (line: string, sources: readonly Source[]) => line.trim().split(/\s+/).map((property) => ({ property, sources }));

/**
 * What a search may name on records and classifications: the one property table the editor, `dam lint` and the
 * emulator's search share (core/search), read here rather than copied, with each property's source; and how fields
 * are named (FieldId / FieldName / FieldLabel followed by the accessor of the field's data type).
 */
function searchProperties(target: QueryTarget): { property: string; sources: readonly Source[] }[] {
  const props = SEARCH_PROPERTIES[target].map((p) => ({
    property: p.name,
    sources: [p.source === 'spec' ? SPEC_SEARCH : p.source === 'service' ? NOTES_SEARCH : sdkModel(target === 'records' ? 'Record' : 'Classification')],
  }));
  if (target !== 'records') return props;
  const accessors = [...new Set(Object.values(ACCESSORS_BY_DATA_TYPE).flatMap((list) => list.map((a) => a.path)))];
  return [...props, ...accessors.map((a) => ({ property: `FieldName('…').${a}`, sources: [SPEC_SEARCH] }))];
}

/** The audit relations almost every resource has (SDK models: `createdby`, `modifiedby` links to a user). */
const audit = (model: string) => relations('createdby:user modifiedby:user', [sdkModel(model)]);


export const resources: Record<string, ResourceEntry> = {
  record: {
    name: 'record',
    sample: 'records?filter=FileCount%20%3E%200',
    sources: [spec('What the service does, 1'), sdkModel('Record')],
    members: [
      ...members('id:guid createdOn:date-time modifiedOn:date-time tag:string?', [SPEC_REPR, sdkModel('Record')]),
      ...members('title:string? status:string contentType:string', [NOTES_CORE, sdkModel('Record')]),
      ...members(
        'textContent:string?! hasImageOverlay:boolean!',
        [NOTES_CORE, sdkModel('Record')],
        'The SDK types them on every record; the emulator shows them when selected (select-record: textContent), as the service does for its expensive attributes (spec: "Omitted expensive/rare attributes are hidden unless selected").',
      ),
      ...members(
        'aiInfluenced:string!',
        [NOTES_CORE, RECORD_DOCS, sdkModel('Record')],
        'Unknown | No | Yes. The notes name the member only; the service\'s record page types it "string (values: unknown, no, yes)" and the SDK\'s model (from the service\'s OpenAPI document) "Unknown" | "No" | "Yes": the service\'s page wins on the type, the SDK on the casing, which is the enum member\'s name as the service prints status (Draft, Released). The emulator answered a boolean until #36 part 5: a typed client (the SDK, .NET with a string enum) fails on true/false. Writes take the three names in any case (and, as before, a boolean as Yes/No).',
      ).map((m) => ({ ...m, default: 'Unknown' })),
    ],
    relations: [
      ...relations('fields:field[] files:file[]', [SPEC_REPR, NOTES_CORE, sdkModel('Record')]),
      ...relations('preview:image thumbnail:image masterfile:file masterfilelatestversion:fileversion classifications:classification[] permissions:permission[] createdby:user modifiedby:user', [NOTES_CORE, sdkModel('Record')]),
      ...relations('masterfilelatestpublishedversion:fileversion accesslists:accesslist[] locks:recordlock analytics=analyticsdata:recordanalytics managedcontent:managedcontent', [sdkModel('Record')]),
      ...relations('collections:collection[]', [spec('What the service does, 1'), sdkModel('Collection')], 'The spec lists collections beside records and the SDK links a collection to its records; the relation back from a record is how a client reads a record\'s collections.'),
    ],
    searchable: [...searchProperties('records'), ...searchable("FieldId('…') FieldName('…') FieldLabel('…')", [SPEC_SEARCH])],
  },
  field: {
    name: 'field',
    sample: 'record/{record}/fields',
    sources: [NOTES_CORE],
    members: members('id:guid fieldName:string label:string dataType:string localizedValues:array', [NOTES_CORE]),
    relations: relations('definition:fielddefinition', [SPEC_SELECT]),
  },
  fielddefinition: {
    name: 'fielddefinition',
    sample: 'fielddefinitions',
    sources: [spec('What the service does, 1'), sdkModel('BaseFieldDefinition')],
    members: [
      ...members(
        'id:guid name:string label:string labels:array dataType:string isRequired:boolean isReadOnly:boolean sortIndex:integer createdOn:date-time modifiedOn:date-time scope:string scopeCategory:string indexed:boolean isUniqueIdentifier:boolean languageMode:string enabledLanguages:array resetToDefaultTriggers:array resetToDefaultFields:array validation:string validationErrorMessage:string validationTrigger:string storageMode:string searchIndexRebuildRequired:boolean helpText:string helpTexts:array inlineStyle:string tag:string? memberships:array',
        [sdkModel('BaseFieldDefinition')],
      ),
      ...members('defaultValue:string?', [sdkModel('BaseFieldDefinition')], 'The SDK types a string; list types read it back as { values } (configurationShapes test), so it is not typed further here.'),
    ],
    relations: [...relations('fieldgroup:fieldgroup', [SPEC_SELECT]), ...audit('BaseFieldDefinition')],
    searchable: searchable('Id Name Label DataType', [SPEC_SEARCH]),
  },
  fieldgroup: {
    name: 'fieldgroup',
    sample: 'fieldgroups',
    sources: [spec('What the service does, 1'), sdkModel('FieldGroup')],
    members: [...members('id:guid name:string createdOn:date-time modifiedOn:date-time', [sdkModel('FieldGroup')]), ...members('tag:string?!', [sdkModel('FieldGroup')])],
    relations: [
      ...relations('members:fielddefinition[]', [sdkModel('FieldGroup'), client('Chris-Castle/aprimo-admin-tool renderer/data-model.js')], 'The field definitions of the group, as its `fields` link lists them.'),
      ...audit('FieldGroup'),
    ],
  },
  classification: {
    name: 'classification',
    sample: 'classifications',
    sources: [spec('What the service does, 1'), NOTES_CORE, sdkModel('Classification')],
    members: [
      ...members('id:guid identifier:string name:string namePath:string? labelPath:string? labels:array parentId:string? isRoot:boolean hasChildren:boolean sortIndex:integer sortOrder:string createdOn:date-time modifiedOn:date-time', [NOTES_CORE, sdkModel('Classification')]),
      ...members('registeredFieldGroups:array registeredFields:array disabledInDAMUI:boolean tag:string?', [sdkModel('Classification')]),
    ],
    relations: [
      ...relations('parent:classification ancestors:classification[] children:classification[] fields:field[] createdby:user modifiedby:user', [NOTES_CORE, SPEC_SELECT, sdkModel('Classification')]),
      ...relations(
        'image:image recordpermissions:classificationpermissions downloadpermissions:classificationpermissions classificationtreepermissions:classificationpermissions slaveclassifications:classification[] followerclassifications:classification[]',
        [sdkModel('Classification')],
      ),
    ],
    searchable: searchProperties('classifications'),
  },
  file: {
    name: 'file',
    sample: 'record/{record}/masterfile',
    sources: [spec('What the service does, 1'), sdkModel('File')],
    members: [
      ...members('id:guid createdOn:date-time', [sdkModel('File')]),
      ...members('checkedOut:boolean checkedOutOn:date-time? watermarkId:guid watermarkType:string', [sdkModel('File')]),
      ...members('recordId:guid isMaster:boolean modifiedOn:date-time', [SPEC_SEARCH], 'IsMaster and CheckedOutBy are searchable file properties (spec); the emulator also shows its record.'),
    ],
    relations: [
      ...relations('fileversions:fileversion[]', [SPEC_SELECT, sdkModel('File'), notes('Core resources')]),
      ...relations('latestversion:fileversion', [CORE_DOCS], 'The emulator\'s link name; the SDK names the same link latestfileversion, listed beside it.'),
      ...relations('preview:image thumbnail:image latestfileversion:fileversion fields:field[] checkedoutby:user watermark:watermark createdby:user', [sdkModel('File')]),
      ...relations('record:record', [spec('Endpoints, Discovery and general conventions')]),
    ],
    searchable: searchable('CheckedOutBy IsMaster', [SPEC_SEARCH]),
  },
  fileversion: {
    name: 'fileversion',
    sample: 'record/{record}/masterfilelatestversion',
    sources: [spec('What the service does, 1'), sdkModel('FileVersion'), NOTES_FILES],
    members: [
      ...members('id:guid versionLabel:string versionNumber:integer fileName:string fileExtension:string fileSize:integer createdOn:date-time fileCreatedOn:date-time fileModifiedOn:date-time preventDownload:boolean fileState:string', [NOTES_FILES, sdkModel('FileVersion')]),
      ...members('comment:string? crc32:integer metadata:object?', [NOTES_FILES, sdkModel('FileVersion')]),
      ...members('aiInfluenced:string', [sdkModel('FileVersion')], 'Unknown | No | Yes, as on a record; the emulator keeps none for a file version, so it is Unknown.').map((m) => ({ ...m, default: 'Unknown' })),
      ...members('isLatest:boolean fileProcessingState:string sha256:string? tag:string? watermarkId:guid watermarkType:string content:string? annotationInfo:object? duplicateInfo:object? hasSmartActionFindings:boolean? publicationItems:array? publications:array?', [sdkModel('FileVersion')]),
    ],
    relations: [
      ...relations('thumbnail:image publiclinks:publiclink[]', [SPEC_SELECT, sdkModel('FileVersion')]),
      ...relations('filetype:filetype publicuris:publicuri[]', [NOTES_FILES, sdkModel('FileVersion')]),
      ...relations('additionalfiles:additionalfile[] preview:image', [NOTES_FILES, sdkModel('FileVersion')]),
      ...relations('filepreviews:filepreview[] masterfilepreview:filepreview renditions:rendition[] watermark:watermark permissions:permission[] usedin:linkedversion[] contains:linkedversion[] createdby:user', [sdkModel('FileVersion')]),
    ],
    searchable: searchable('FileName FileSize Checksum CreatedOn Comment Extension HasPublicUri Id Preview PreviewCount Version VersionLabel AdditionalFile', [SPEC_SEARCH]),
  },
  additionalfile: {
    name: 'additionalfile',
    sample: 'fileversion/{fileversion}/additionalfiles',
    sources: [spec('What the service does, 1'), sdkModel('AdditionalFile')],
    members: [
      ...members('id:guid label:string fileName:string extension:string fileSize:integer crc32:integer isManual:boolean type:string usages:array purposes:array', [sdkModel('AdditionalFile')]),
      ...members('uri:string! metadata:object! tag:string?!', [sdkModel('AdditionalFile'), NOTES_FILES]),
    ],
    relations: [
      ...relations('publiclink:publiclink mainpreview:image filepreviews:filepreview[]', [sdkModel('AdditionalFile')]),
      ...relations('fileversion:fileversion', [CORE_DOCS]),
    ],
  },
  image: {
    name: 'image',
    sample: 'record/{record}/preview',
    sources: [spec('Endpoints, Discovery and general conventions'), sdkModel('Image')],
    members: members('uri:string size:integer width:integer height:integer extension:string', [NOTES_FILES, sdkModel('Image')]),
    relations: [],
  },
  language: {
    name: 'language',
    sample: 'languages',
    sources: [spec('What the service does, 1'), sdkModel('Language')],
    members: [
      ...members('id:guid culture:string', [notes('More of what public clients send and read: Records and files'), sdkModel('Language')]),
      ...members('name:string createdOn:date-time modifiedOn:date-time', [sdkModel('Language')]),
      ...members('isEnabledForFields:boolean isEnabledForUI:boolean', [sdkModel('Language'), client('Chris-Castle/aprimo-admin-tool renderer/app.js')], 'True for every culture the emulator has, false for the neutral language.'),
      ...members('tag:string?!', [sdkModel('Language')]),
    ],
    relations: [...relations('image:image', [sdkModel('Language')]), ...audit('Language')],
  },
  contenttype: {
    name: 'contenttype',
    sample: 'contenttypes',
    sources: [spec('What the service does, 1'), sdkModel('ContentType')],
    members: [
      ...members('id:guid name:string labels:array createdOn:date-time modifiedOn:date-time purpose:string parentId:guid? fileMode:string isManual:boolean isNoFile:boolean fileConfiguration:object? defaultFileExtensions:array registeredFields:array registeredFieldGroups:array inheritanceConfiguration:string inheritanceFieldId:guid', [sdkModel('ContentType')]),
      ...members('titleConfiguration:object? inheritableFields:array', [sdkModel('ContentType')], 'The SDK types titleConfiguration as an object and inheritableFields as a collection; an unconfigured one is null / an empty list on the emulator.'),
    ],
    relations: [...relations('parent:contenttype', [sdkModel('ContentType')]), ...audit('ContentType')],
  },
  user: {
    name: 'user',
    sample: 'users',
    sources: [spec('What the service does, 1'), sdkModel('User')],
    members: [
      ...members('id:guid', [CONTRACT_IDS, sdkModel('User')]),
      ...members('firstName:string lastName:string email:string isActive:boolean languageId:guid createdOn:date-time modifiedOn:date-time name:string', [sdkModel('User'), SPEC_SEARCH]),
      ...members('aprimoUserId:integer expirationDate:date-time? imageUri:string? languageForUIId:guid lastSuccessfulLogOnDate:date-time? secondLastSuccessfulLogOnDate:date-time? storageQuota:integer storageUsed:integer', [sdkModel('User')]),
      ...members('tag:string?!', [sdkModel('User')]),
    ],
    relations: [
      ...relations('memberships:usergroup[] fields:field[] permissions:permission[] image:image', [sdkModel('User')]),
      ...relations('usergroups:usergroup[]', [CORE_DOCS], 'The emulator\'s name for the same list as memberships (SDK); both are served.'),
      ...audit('User'),
    ],
    searchable: searchable('Id Email Name FirstName LastName', [SPEC_SEARCH]),
  },
  usergroup: {
    name: 'usergroup',
    sample: 'usergroups',
    sources: [spec('What the service does, 1'), sdkModel('UserGroup')],
    members: [
      ...members('id:guid', [CONTRACT_IDS, sdkModel('UserGroup')]),
      ...members('name:string createdOn:date-time modifiedOn:date-time isActive:boolean organizationId:guid', [sdkModel('UserGroup')]),
      ...members('tag:string?!', [sdkModel('UserGroup')]),
    ],
    relations: [...relations('permissions:permission[]', [sdkModel('UserGroup')]), ...relations('members:user[]', [CORE_DOCS]), ...audit('UserGroup')],
  },
  setting: {
    name: 'setting',
    sample: 'settings',
    sources: [spec('What the service does, 1'), sdkModel('Setting')],
    members: members('name:string value:string', [spec('Maintenance job request'), sdkModel('Setting')]),
    relations: relations('definition:settingdefinition', [CORE_DOCS], 'Not in the SDK model (it types only self); the emulator links the definition, which a tenant\'s document lists for settings.'),
  },
  settingdefinition: {
    name: 'settingdefinition',
    sample: 'settingdefinitions',
    sources: [spec('What the service does, 1'), sdkModel('SettingDefinition')],
    members: [
      ...members('id:guid name:string labels:array dataType:string allowSystemSetting:boolean allowUserSetting:boolean categoryId:guid createdOn:date-time modifiedOn:date-time helpUrl:string? roleRequiredForChange:string? userGroupSettingMode:string', [sdkModel('SettingDefinition')]),
      ...members('tag:string?!', [sdkModel('SettingDefinition')]),
    ],
    relations: audit('SettingDefinition'),
  },
  maintenancejob: {
    name: 'maintenancejob',
    sample: 'maintenancejobs',
    sources: [spec('Maintenance job request'), notes('Maintenance jobs'), sdkModel('MaintenanceJob')],
    members: [
      ...members('id:guid type:string status:string actions:array targetsCount:integer failedTargetsCount:integer errors:array? message:string? createdOn:date-time startedOn:date-time?', [notes('Maintenance jobs'), sdkModel('MaintenanceJob')]),
      ...members('creatorEmail:string disableNotification:boolean earliestStartDate:date-time?', [sdkModel('MaintenanceJob')]),
      ...members('executionTime:string?', [notes('Maintenance jobs'), sdkModel('MaintenanceJob')], 'The SDK types a duration string ("time it took"), not a date-time.'),
      ...members('priority:integer', [notes('Maintenance jobs'), sdkModel('MaintenanceJob')], 'Requests send Low | Medium | High (notes); the SDK model of the answer types an int, and the answer\'s type wins: 0, 1, 2 as for orders.'),
    ],
    relations: [...relations('targets:maintenancetarget[] createdby:user', [sdkModel('MaintenanceJob')])],
  },
  order: {
    name: 'order',
    sample: 'orders',
    sources: [notes('Orders'), sdkModel('DownloadOrder')],
    members: [
      ...members(
        'id:guid orderType:string status:string priority:integer creatorEmail:string disableNotification:boolean earliestStartDate:date-time? startedOn:date-time? createdOn:date-time message:string? deliveredFiles:array',
        [notes('More of what public clients send and read: Orders'), sdkModel('DownloadOrder')],
      ),
      ...members('type:string failedTargetsCount:integer totalFileSize:integer disableProcessing:string useCDN:string downloadAgreementIds:array? notificationThresholdInSeconds:integer?', [sdkModel('DownloadOrder')]),
    ],
    relations: relations('targets:ordertarget[] createdby:user', [notes('More of what public clients send and read: Orders')]),
  },
  permission: {
    name: 'permission',
    sample: 'permissions',
    sources: [spec('What the service does, 1'), sdkModel('Permission')],
    members: members('name:string labels:array', [sdkModel('Permission')]),
    relations: [],
  },
  collection: {
    name: 'collection',
    sample: 'collections',
    sources: [spec('What the service does, 1'), sdkModel('Collection'), SELECT_DOCS],
    members: [
      ...members('id:guid name:string description:string? type:string isReadOnly:boolean? searchExpression:object? searchCriteria:object? createdOn:date-time modifiedOn:date-time', [sdkModel('Collection')]),
      ...members('ownerId:guid?', [sdkModel('Collection')]),
      ...members('tag:string?!', [sdkModel('Collection')]),
    ],
    relations: relations('records:record[] ownedby:user permissions:collectionpermissions comments:comment[] createdby:user modifiedby:user', [sdkModel('Collection')]),
    searchable: searchable('Id Name Type', [spec('Endpoints, Search expressions: "Many more properties exist for collections"')]),
  },
  watermark: {
    name: 'watermark',
    sample: 'watermarks',
    sources: [spec('What the service does, 1'), sdkModel('Watermark')],
    members: [
      ...members('id:guid name:string createdOn:date-time modifiedOn:date-time', [sdkModel('Watermark')]),
      { ...members('position:string', [sdkModel('Watermark')])[0], default: 'middlecenter' },
      ...members('tag:string?!', [sdkModel('Watermark')]),
    ],
    relations: [...relations('image:image', [sdkModel('Watermark')]), ...audit('Watermark')],
  },
  rule: {
    name: 'rule',
    sample: 'rules',
    sources: [spec('What the service does, 1'), sdkModel('Rule')],
    members: [
      ...members('id:guid name:string enabled:boolean expression:string includeDraftRecords:boolean isInternal:boolean version:integer createdOn:date-time modifiedOn:date-time', [sdkModel('Rule')]),
      { ...members('target:string', [sdkModel('Rule')])[0], default: 'Record' },
      { ...members('trigger:string', [sdkModel('Rule')])[0], default: 'WhenSavedOrDeleted' },
      ...members('tag:string?!', [sdkModel('Rule')]),
    ],
    relations: [
      ...relations('conditions:rulecondition[] actions:ruleaction[]', [sdkModel('Rule'), client('Chris-Castle/aprimo-admin-tool renderer/data-model.js')], 'Kept as the lists the addOrUpdate and remove sections of writes describe.'),
      ...audit('Rule'),
    ],
  },
  // Issue 36 (audit against the service's documentation and SDK): resources the SDK's modules read and write that the
  // catalogue lacked. Each is modelled far enough that its documented reads, writes and relations behave.
  publiclink: {
    name: 'publiclink',
    sample: 'fileversion/{fileversion}/publiclinks',
    sources: [sdkModel('PublicLink'), sdkModule('public-links')],
    members: [
      ...members('id:guid createdOn:date-time modifiedOn:date-time uri:string provider:string canDelete:boolean fileSize:integer', [sdkModel('PublicLink')]),
      ...members('recordId:guid? fileVersionId:guid? additionalFileId:guid? renditionName:string?', [sdkModel('PublicLink'), sdkModule('public-links')], 'The module\'s create names exactly one target (recordId, fileVersionId or additionalFileId); the model types each as a string. The emulator fills the record (and, for an additional file, the version) a target belongs to, and answers null for the rest.'),
      ...members('origin:string status:string', [sdkModel('PublicLink')], 'Order | Api and Pending | Published | Failed | Overwritten | Tobedeleted: a link made through the API is Api, and the emulator publishes at once, so Published.'),
    ],
    relations: audit('PublicLink'),
  },
  rendition: {
    name: 'rendition',
    sample: 'fileversion/{fileversion}/renditions',
    sources: [sdkModel('Rendition'), sdkModule('renditions'), sdkModule('file-versions')],
    members: [
      ...members('id:guid name:string type:string extension:string width:integer height:integer resizeWidth:integer resizeHeight:integer', [sdkModel('Rendition')]),
      ...members('uri:string! preview:string!', [sdkModel('Rendition')], 'Shown when selected (select-rendition: Uri, Preview), as the model\'s comments say.'),
      ...members('publishedUri:string?!', [sdkModel('Rendition')], 'The URI of the rendition\'s published public link (select-rendition: PublishedUri); null when it has none.'),
    ],
    relations: relations('publiclinks:publiclink[]', [sdkModel('Rendition')]),
    note: 'The emulator\'s renditions are the additional files its CreateRenditions jobs make (additionalfile): the same id, read as a rendition.',
  },
  downloadlink: {
    name: 'downloadlink',
    sample: 'downloadlinks',
    sources: [sdkModel('DownloadLink'), sdkModule('download-links')],
    members: [
      ...members('id:guid createdOn:date-time deliveredFiles:array description:string downloadAgreementIds:array failedRecordsCount:integer failedTargetsCount:integer status:string succeededRecordsCount:integer title:string type:string', [sdkModel('DownloadLink')]),
      ...members('errorDescription:string?', [sdkModel('DownloadLink')]),
    ],
    relations: [...relations('targets:downloadlinktarget[] createdby:user', [sdkModel('DownloadLink')])],
    note: 'The SDK: "download links are outputs from maintenance jobs and orders". The emulator\'s are its download orders, by the order\'s id.',
  },
  settingcategory: {
    name: 'settingcategory',
    sample: 'settingcategories',
    sources: [sdkModel('SettingCategory'), sdkModule('setting-categories'), SETTINGCATEGORY_DOCS],
    members: [...members('id:guid name:string labels:array createdOn:date-time modifiedOn:date-time', [sdkModel('SettingCategory'), SETTINGCATEGORY_DOCS]), ...members('tag:string?!', [sdkModel('SettingCategory'), SETTINGCATEGORY_DOCS])],
    relations: relations('createdby:user modifiedby:user', [sdkModel('SettingCategory'), SETTINGCATEGORY_DOCS]),
    note: 'A category each setting definition names (its categoryId) is listed; more are created and deleted through the module\'s routes.',
  },
  filetype: {
    name: 'filetype',
    sample: 'filetypes',
    sources: [sdkModel('FileType'), sdkModule('file-types'), docs('https://training3.dam.aprimo.com/api/core/docs/resources/filetype')],
    members: [
      ...members('id:guid name:string extension:string mimeType:string kind:string engineFormat:string labels:array createdOn:date-time modifiedOn:date-time', [sdkModel('FileType'), FILETYPE_DOCS]),
      ...members('isCatalogable:boolean preferredExtension:boolean previewKeepDimensions:boolean previewRequired:boolean supportAssetResize:boolean supportAssetWatermark:boolean', [sdkModel('FileType'), FILETYPE_DOCS]),
      ...members('catalogActions:array mediaEngines:array previewPlayers:array registeredFields:array registeredFieldGroups:array', [sdkModel('FileType'), FILETYPE_DOCS]),
      ...members('allowOrderResizeSource:boolean keepDocumentDimensions:boolean icon:string thumbnail:string', [sdkModel('FileType')], 'In the SDK\'s model, not on the service\'s filetype page (whose create example sends icon and thumbnail as upload tokens): the model wins, since a typed client reads them; the emulator keeps no pictures, so the strings are empty.'),
      { ...members('previewFormat:string', [sdkModel('FileType')], 'Jpg | Png (the model\'s enum).')[0], default: 'Jpg' },
      ...members('tag:string?!', [sdkModel('FileType')]),
    ],
    relations: [...relations('icon:image thumbnail:image', [sdkModel('FileType')]), ...audit('FileType')],
    note: 'A file type for each extension the tenant\'s file versions have is listed (what a tenant catalogued them with); more are created, changed and deleted through the module\'s routes.',
  },
  contentsubscription: {
    name: 'contentsubscription',
    sample: 'contentsubscriptions',
    sources: [spec('What the service does, 1'), CONTENTSUBSCRIPTION_DOCS],
    members: [
      ...members('id:guid objectId:guid', [CONTENTSUBSCRIPTION_DOCS]),
      { ...members('subscriptionType:integer', [CONTENTSUBSCRIPTION_DOCS], 'The page\'s shared enum: 1 = Follow, 2 = Expiry. A collection subscription is sent as Follow, so Follow is the default.')[0], default: 1 },
      ...members('subscriptionObjectType:integer', [CONTENTSUBSCRIPTION_DOCS], 'The page\'s shared enum: 0 = Record, 1 = Collection.'),
      ...members('createdOn:date-time modifiedOn:date-time', [SPEC_REPR], 'Not on the page; the spec\'s common representation (every kept resource has them).'),
    ],
    relations: relations('createdby:user modifiedby:user', [SPEC_REPR], 'Not on the page, which says a subscription is the current user\'s: the subscriber is its creator.'),
    note: 'The page documents the DAM UI Server\'s routes (POST and DELETE /contentitems/{id}/subscription and /collections/{id}/subscription), which forward to the DAM API; its members are the subscribe body (objectId, subscriptionType, subscriptionObjectType) and the response id. It names no record or user relation, so none embeds one.',
  },
};
